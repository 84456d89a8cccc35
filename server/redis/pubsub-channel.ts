import { answerWithin } from "./bounded.ts";
import type { RedisClient } from "./client.ts";

/** How often each instance publishes a heartbeat it expects to hear back on its own subscriber. */
export const BUS_HEARTBEAT_MS = 5000;
/** Heartbeats missed in a row before the subscriber is taken for deaf and subscribed again. */
const MISSED_HEARTBEATS = 3;

export interface PubSubChannelOptions<M> {
  /** The full channel name (prefix included). */
  channel: string;
  timeoutMs: number;
  heartbeatMs?: number;
  /** A message from the channel checked field by field, or null: anything else on it is ignored. */
  parse: (text: string) => M | null;
}

/**
 * One Redis pub/sub channel every instance publishes to and hears on its subscriber connection (the
 * overlay bus and the alert bus each keep one). Pub/sub keeps nothing: after the subscriber reconnects
 * the listener is told (null) so it can catch up from the database. A watchdog (scale-out.md §6)
 * publishes a heartbeat every few seconds; a subscriber that stops hearing its own (deaf although
 * connected, as clients have been seen to be after a restart) is subscribed again and the listener told.
 */
export class PubSubChannel<M> {
  readonly #channel: string;
  readonly #instance = crypto.randomUUID();
  readonly #parse: (text: string) => M | null;
  #handler: ((message: M | null) => void) | null = null;
  #subscribed = false;
  readonly #timeoutMs: number;
  readonly #heartbeatMs: number;
  #lastHeard = performance.now();
  #watchdog: ReturnType<typeof setInterval> | null = null;
  #resubscribing = false;

  constructor(
    readonly client: RedisClient,
    readonly subscriber: RedisClient,
    options: PubSubChannelOptions<M>,
  ) {
    this.#channel = options.channel;
    this.#parse = options.parse;
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
    const message = this.#parse(text);
    if (message) this.#tell(message);
  };

  /** Hands a message (or a catch-up) on; nothing the listener throws reaches node-redis's decoder. */
  #tell(message: M | null): void {
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

  /** Publishes one message (already serialised) within the timeout; rejects when Redis is away. */
  async publish(text: string): Promise<void> {
    await answerWithin(this.client.publish(this.#channel, text), this.#timeoutMs);
  }

  listen(handler: (message: M | null) => void): void {
    this.#handler = handler;
  }
}
