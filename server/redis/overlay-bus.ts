import type { StoredOverlayState } from "../../db/overlay.ts";
import type { OverlayBus } from "../overlay/hub.ts";
import { answerWithin } from "./bounded.ts";
import type { RedisClient } from "./client.ts";

interface BusMessage {
  a: number;
  s: StoredOverlayState;
}

/** A message from the channel, checked field by field: anything else on it is ignored. */
function parse(text: string): { accountId: number; state: StoredOverlayState } | null {
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

/** How often each instance publishes a heartbeat it expects to hear back on its own subscriber. */
export const BUS_HEARTBEAT_MS = 5000;
/** Heartbeats missed in a row before the subscriber is taken for deaf and subscribed again. */
const MISSED_HEARTBEATS = 3;

/**
 * Overlay publishes over Redis pub/sub (`<prefix>overlay`): one PUBLISH per publish, heard by every
 * instance on its subscriber connection. Pub/sub keeps nothing: after the subscriber reconnects the
 * hub is told (null) and re-sends the stored state to its open overlays. A watchdog (scale-out.md §6)
 * publishes a heartbeat every few seconds; a subscriber that stops hearing its own — deaf although
 * connected, as clients have been seen to be after a restart — is subscribed again and the hub told.
 */
export class RedisOverlayBus implements OverlayBus {
  readonly #channel: string;
  readonly #instance = crypto.randomUUID();
  #handler: ((message: { accountId: number; state: StoredOverlayState } | null) => void) | null = null;
  #subscribed = false;
  readonly #timeoutMs: number;
  readonly #heartbeatMs: number;
  #lastHeard = performance.now();
  #watchdog: ReturnType<typeof setInterval> | null = null;
  #resubscribing = false;

  constructor(
    readonly client: RedisClient,
    readonly subscriber: RedisClient,
    options: { keyPrefix: string; timeoutMs: number; heartbeatMs?: number },
  ) {
    this.#channel = `${options.keyPrefix}overlay`;
    this.#timeoutMs = options.timeoutMs;
    this.#heartbeatMs = options.heartbeatMs ?? BUS_HEARTBEAT_MS;
    // After a reconnect node-redis subscribes again by itself; what was published meanwhile is lost.
    subscriber.on("ready", () => {
      this.#lastHeard = performance.now();
      if (this.#subscribed) this.#tell(null);
    });
  }

  readonly #onMessage = (text: string) => {
    if (text === this.#instance) {
      this.#lastHeard = performance.now();
      return;
    }
    const message = parse(text);
    if (message) this.#tell(message);
  };

  /** Hands a message (or a catch-up) to the hub; nothing it throws reaches node-redis's decoder. */
  #tell(message: { accountId: number; state: StoredOverlayState } | null): void {
    try {
      this.#handler?.(message);
    } catch {
      // an overlay that failed (or a database closing during shutdown) is not the bus's business
    }
  }

  /** Subscribes; resolves once Redis confirmed, so no publish after start-up is missed. */
  async start(): Promise<void> {
    await this.subscriber.subscribe(this.#channel, this.#onMessage);
    this.#subscribed = true;
    this.#lastHeard = performance.now();
    this.#watchdog = setInterval(() => void this.#beat(), this.#heartbeatMs);
    this.#watchdog.unref?.();
  }

  /** Stops the watchdog (the connections are closed by their owner). */
  stop(): void {
    if (this.#watchdog) clearInterval(this.#watchdog);
    this.#watchdog = null;
  }

  async #beat(): Promise<void> {
    // Only a live publisher can tell: while Redis is away, reconnecting is node-redis's business.
    if (!this.client.isReady || !this.subscriber.isReady || this.#resubscribing) return;
    if (performance.now() - this.#lastHeard > MISSED_HEARTBEATS * this.#heartbeatMs) {
      this.#resubscribing = true;
      try {
        await answerWithin(this.subscriber.unsubscribe(this.#channel), this.#timeoutMs).catch(() => {});
        await answerWithin(this.subscriber.subscribe(this.#channel, this.#onMessage), this.#timeoutMs);
        this.#lastHeard = performance.now();
        this.#tell(null);
      } catch {
        // tried again at the next beat
      } finally {
        this.#resubscribing = false;
      }
    }
    await answerWithin(this.client.publish(this.#channel, this.#instance), this.#timeoutMs).catch(() => {});
  }

  async send(accountId: number, state: StoredOverlayState): Promise<void> {
    const message: BusMessage = { a: accountId, s: state };
    await answerWithin(this.client.publish(this.#channel, JSON.stringify(message)), this.#timeoutMs);
  }

  listen(handler: (message: { accountId: number; state: StoredOverlayState } | null) => void): void {
    this.#handler = handler;
  }
}
