import type { Alert, AlertFields } from "../alerts/model.ts";
import { parseAlertType } from "../alerts/model.ts";
import type { AlertBus, AlertBusMessage } from "../overlay/alert-hub.ts";
import type { RedisClient } from "./client.ts";
import { PubSubChannel } from "./pubsub-channel.ts";

type Heard = Exclude<AlertBusMessage, null>;

const isCount = (value: unknown): value is number | null =>
  value === null || (typeof value === "number" && Number.isFinite(value));
const isText = (value: unknown): value is string | null => value === null || typeof value === "string";

function fieldsOf(value: unknown): AlertFields | null {
  if (typeof value !== "object" || value === null) return null;
  const f = value as Record<string, unknown>;
  const tier = f.tier;
  if (
    typeof f.user !== "string" ||
    !isCount(f.amount) ||
    !isCount(f.months) ||
    !(tier === null || tier === "1" || tier === "2" || tier === "3") ||
    !isText(f.reward) ||
    !isText(f.message)
  ) {
    return null;
  }
  return { user: f.user, amount: f.amount, months: f.months, tier, reward: f.reward, message: f.message };
}

const isId = (value: unknown): value is number | null =>
  value === null || (typeof value === "number" && Number.isSafeInteger(value));

/** An alert from the channel, checked field by field (another version's or a stranger's is ignored). */
function alertOf(value: unknown): Alert | null {
  if (typeof value !== "object" || value === null) return null;
  const a = value as Record<string, unknown>;
  const type = typeof a.type === "string" ? parseAlertType(a.type) : null;
  const fields = fieldsOf(a.fields);
  if (
    !type ||
    !fields ||
    !Number.isSafeInteger(a.id) ||
    !Number.isFinite(a.at) ||
    typeof a.test !== "boolean" ||
    typeof a.text !== "string" ||
    !Number.isFinite(a.durationMs) ||
    !isId(a.imageId) ||
    !isId(a.soundId) ||
    !Number.isFinite(a.volume)
  ) {
    return null;
  }
  return {
    id: a.id as number,
    type,
    fields,
    at: a.at as number,
    test: a.test,
    text: a.text,
    durationMs: a.durationMs as number,
    imageId: a.imageId,
    soundId: a.soundId,
    volume: a.volume as number,
  };
}

function parse(text: string): Heard | null {
  try {
    const message = JSON.parse(text) as { a?: unknown; l?: unknown } | null;
    if (!Number.isSafeInteger(message?.a)) return null;
    const alert = alertOf(message?.l);
    return alert ? { accountId: message?.a as number, alert } : null;
  } catch {
    return null;
  }
}

/**
 * Alerts over Redis pub/sub (`<prefix>alerts`): the instance that received the event publishes it once
 * and every instance hands it to its open overlays (redis/pubsub-channel.ts: heartbeat watchdog,
 * reconnects; after the subscriber was away the hub offers the last minute's alerts again).
 */
export class RedisAlertBus extends PubSubChannel<Heard> implements AlertBus {
  constructor(
    client: RedisClient,
    subscriber: RedisClient,
    options: { keyPrefix: string; timeoutMs: number; heartbeatMs?: number },
  ) {
    super(client, subscriber, {
      channel: `${options.keyPrefix}alerts`,
      timeoutMs: options.timeoutMs,
      heartbeatMs: options.heartbeatMs,
      parse,
    });
  }

  async send(accountId: number, alert: Alert): Promise<void> {
    await this.publish(JSON.stringify({ a: accountId, l: alert }));
  }
}
