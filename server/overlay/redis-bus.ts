import type { StoredOverlayState } from "../../db/overlay.ts";
import { answerWithin } from "../redis/bounded.ts";
import type { RedisClient } from "../redis/client.ts";
import type { OverlayBus } from "./hub.ts";

interface BusMessage {
  a: number;
  s: StoredOverlayState;
}

function parse(text: string): { accountId: number; state: StoredOverlayState } | null {
  try {
    const message = JSON.parse(text) as BusMessage;
    if (!Number.isInteger(message.a) || typeof message.s?.version !== "number") return null;
    return { accountId: message.a, state: message.s };
  } catch {
    return null;
  }
}

/**
 * Overlay publishes over Redis pub/sub (`<prefix>overlay`): one PUBLISH per publish, heard by every
 * instance on its subscriber connection. Pub/sub keeps nothing: after the subscriber reconnects the
 * hub is told (null) and re-sends the stored state to its open overlays.
 */
export class RedisOverlayBus implements OverlayBus {
  readonly #channel: string;
  #handler: ((message: { accountId: number; state: StoredOverlayState } | null) => void) | null = null;
  #subscribed = false;
  readonly #timeoutMs: number;

  constructor(
    readonly client: RedisClient,
    readonly subscriber: RedisClient,
    options: { keyPrefix: string; timeoutMs: number },
  ) {
    this.#channel = `${options.keyPrefix}overlay`;
    this.#timeoutMs = options.timeoutMs;
    // After a reconnect node-redis subscribes again by itself; what was published meanwhile is lost.
    subscriber.on("ready", () => {
      if (this.#subscribed) this.#handler?.(null);
    });
  }

  /** Subscribes; resolves once Redis confirmed, so no publish after start-up is missed. */
  async start(): Promise<void> {
    await this.subscriber.subscribe(this.#channel, (text) => {
      const message = parse(text);
      if (message) this.#handler?.(message);
    });
    this.#subscribed = true;
  }

  async send(accountId: number, state: StoredOverlayState): Promise<void> {
    const message: BusMessage = { a: accountId, s: state };
    await answerWithin(this.client.publish(this.#channel, JSON.stringify(message)), this.#timeoutMs);
  }

  listen(handler: (message: { accountId: number; state: StoredOverlayState } | null) => void): void {
    this.#handler = handler;
  }
}
