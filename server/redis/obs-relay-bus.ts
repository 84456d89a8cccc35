import type { ObsRelayBus, RelayBusMessage } from "../obs/relay.ts";
import { parseRelayAnswer, parseRelayReport } from "../obs/relay-protocol.ts";
import { parseObsStep } from "../obs/steps.ts";
import type { RedisClient } from "./client.ts";
import { PubSubChannel } from "./pubsub-channel.ts";

type Fields = Record<string, unknown>;

const isPage = (value: unknown): value is string =>
  typeof value === "string" && /^[A-Za-z0-9-]{1,64}$/.test(value);

/** The part of a message after its kind, checked field by field as the page's POSTs are. */
function bodyOf(kind: unknown, accountId: number, m: Fields): RelayBusMessage | null {
  if (kind === "settings") return { kind, accountId };
  if (kind === "gone") return isPage(m.p) ? { kind, accountId, page: m.p } : null;
  if (kind === "report") {
    const report = parseRelayReport(m.r);
    return "bad" in report ? null : { kind, accountId, report };
  }
  if (kind === "answer") {
    const answer = parseRelayAnswer(m.r);
    return "bad" in answer ? null : { kind, accountId, answer };
  }
  if (kind === "order") {
    const order = (m.o ?? {}) as Fields;
    const step = parseObsStep(order.step);
    return step && isPage(m.p) && isPage(order.id)
      ? { kind, accountId, page: m.p, order: { id: order.id, step } }
      : null;
  }
  return null;
}

/** A message from the channel, or null: another version's or a stranger's is ignored. */
function parse(text: string): RelayBusMessage | null {
  try {
    const m = JSON.parse(text) as Fields | null;
    if (!m || !Number.isSafeInteger(m.a)) return null;
    return bodyOf(m.k, m.a as number, m);
  } catch {
    return null;
  }
}

/** A message as it goes on the channel (short keys, as the other buses). */
function serialise(message: RelayBusMessage): string {
  const base = { k: message.kind, a: message.accountId };
  if (message.kind === "settings") return JSON.stringify(base);
  if (message.kind === "gone") return JSON.stringify({ ...base, p: message.page });
  if (message.kind === "report") return JSON.stringify({ ...base, r: message.report });
  if (message.kind === "answer") return JSON.stringify({ ...base, r: message.answer });
  return JSON.stringify({ ...base, p: message.page, o: message.order });
}

/**
 * The overlay relay over Redis pub/sub (`<prefix>obs-relay`, obs/relay.ts): the pages' reports, the
 * steps on their way to the instance holding the page's stream, the answers on their way back to the
 * instance that sent the step, and "read the settings again" (never the password itself). Every
 * instance hears every message (redis/pubsub-channel.ts: heartbeat watchdog, reconnects); after the
 * subscriber was away the relay sends its open pages the settings again, and the pages' next reports
 * (every 5 s) fill the table again.
 */
export class RedisObsRelayBus extends PubSubChannel<RelayBusMessage> implements ObsRelayBus {
  constructor(
    client: RedisClient,
    subscriber: RedisClient,
    options: { keyPrefix: string; timeoutMs: number; heartbeatMs?: number },
  ) {
    super(client, subscriber, {
      channel: `${options.keyPrefix}obs-relay`,
      timeoutMs: options.timeoutMs,
      heartbeatMs: options.heartbeatMs,
      parse,
    });
  }

  async send(message: RelayBusMessage): Promise<void> {
    await this.publish(serialise(message));
  }
}
