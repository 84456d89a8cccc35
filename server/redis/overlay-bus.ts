import type { StoredOverlayState } from "../../db/overlay.ts";
import type { OverlayBus } from "../overlay/hub.ts";
import type { RedisClient } from "./client.ts";
import { PubSubChannel } from "./pubsub-channel.ts";

export { BUS_HEARTBEAT_MS } from "./pubsub-channel.ts";

interface BusMessage {
  a: number;
  s: StoredOverlayState;
}

type Heard = { accountId: number; state: StoredOverlayState };

/** A message from the channel, checked field by field: anything else on it is ignored. */
function parse(text: string): Heard | null {
  try {
    const message = JSON.parse(text) as BusMessage;
    const s = message?.s;
    if (
      !Number.isInteger(message.a) ||
      !Number.isInteger(s?.version) ||
      !Number.isFinite(s?.updatedAt) ||
      typeof s?.state !== "object" ||
      s.state === null ||
      Array.isArray(s.state)
    ) {
      return null;
    }
    return { accountId: message.a, state: { state: s.state, version: s.version, updatedAt: s.updatedAt } };
  } catch {
    return null;
  }
}

/**
 * Overlay publishes over Redis pub/sub (`<prefix>overlay`): one PUBLISH per publish, heard by every
 * instance on its subscriber connection (redis/pubsub-channel.ts: heartbeat watchdog, reconnects).
 * After the subscriber reconnects the hub is told (null) and re-sends the stored state to its open
 * overlays.
 */
export class RedisOverlayBus extends PubSubChannel<Heard> implements OverlayBus {
  constructor(
    client: RedisClient,
    subscriber: RedisClient,
    options: { keyPrefix: string; timeoutMs: number; heartbeatMs?: number },
  ) {
    super(client, subscriber, {
      channel: `${options.keyPrefix}overlay`,
      timeoutMs: options.timeoutMs,
      heartbeatMs: options.heartbeatMs,
      parse,
    });
  }

  async send(accountId: number, state: StoredOverlayState): Promise<void> {
    const message: BusMessage = { a: accountId, s: state };
    await this.publish(JSON.stringify(message));
  }
}
