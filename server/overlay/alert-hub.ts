import type { Alert } from "../alerts/model.ts";

/** One alert heard on the bus, or null after the bus reconnected (alerts may have been lost). */
export type AlertBusMessage = { accountId: number; alert: Alert } | null;

/**
 * Carries alerts between instances (Redis pub/sub): every instance hears every alert, its own
 * included, and hands it to its hub's local listeners.
 */
export interface AlertBus {
  /** Sends one alert to every instance; rejects when the bus is away. */
  send(accountId: number, alert: Alert): Promise<void>;
  listen(handler: (message: AlertBusMessage) => void): void;
}

export interface AlertHubOptions {
  /** Several instances: alerts travel through this bus so overlays connected anywhere show them. */
  bus?: AlertBus;
  /** The account's alerts of the last minute, offered again to open overlays after the bus was away. */
  recent?: (accountId: number) => Promise<Alert[]>;
  /** An alert could not go through the bus (open overlays here still get it). */
  onBusError?: (error: unknown) => void;
}

/** Alert ids one overlay remembers having been handed (far more than a minute of alerts). */
const REMEMBERED_IDS = 500;

/**
 * One open overlay's view of the alerts: each id handed on once, none at or below the id it said it
 * had already shown (Last-Event-ID). While held (the stream is still reading its catch-up), alerts wait
 * and are handed on, in id order, with the catch-up when released.
 */
export class AlertFeed {
  readonly #seen = new Set<number>();
  readonly #after: number;
  readonly #deliver: (alert: Alert) => void;
  #held: Alert[] | null;

  constructor(deliver: (alert: Alert) => void, options: { after?: number; hold?: boolean } = {}) {
    this.#deliver = deliver;
    this.#after = options.after ?? 0;
    this.#held = options.hold ? [] : null;
  }

  /** Hands the alert on unless this overlay had it already. */
  offer(alert: Alert): void {
    if (!this.#admit(alert)) return;
    if (this.#held) this.#held.push(alert);
    else this.#deliver(alert);
  }

  /** Ends the hold: the catch-up and whatever arrived meanwhile, each once, oldest id first. */
  release(catchUp: readonly Alert[] = []): void {
    const held = this.#held ?? [];
    this.#held = null;
    for (const alert of catchUp) if (this.#admit(alert)) held.push(alert);
    held.sort((a, b) => a.id - b.id);
    for (const alert of held) this.#deliver(alert);
  }

  #admit(alert: Alert): boolean {
    if (alert.id <= this.#after || this.#seen.has(alert.id)) return false;
    this.#seen.add(alert.id);
    if (this.#seen.size > REMEMBERED_IDS) {
      const oldest = this.#seen.values().next().value;
      if (oldest !== undefined) this.#seen.delete(oldest);
    }
    return true;
  }
}

/**
 * Fans an alert out to every open alert stream of the account (OBS browser sources listening on SSE).
 * With a bus, overlays connected to other instances get it too; each overlay is handed an alert once
 * however often it arrives (the bus brings an instance's own alerts back; a send that timed out may
 * have gone through). After the bus was away, open overlays are offered the last minute's alerts again.
 */
export class AlertHub {
  readonly #feeds = new Map<number, Set<AlertFeed>>();
  readonly #closers = new Set<() => void>();
  readonly #options: AlertHubOptions;

  constructor(options: AlertHubOptions = {}) {
    this.#options = options;
    options.bus?.listen((message) => {
      if (message) this.#deliver(message.accountId, message.alert);
      else this.#catchUp();
    });
  }

  /** Listens for the account's alerts; returns the way to stop. */
  subscribe(accountId: number, feed: AlertFeed): () => void {
    let set = this.#feeds.get(accountId);
    if (!set) {
      set = new Set();
      this.#feeds.set(accountId, set);
    }
    set.add(feed);
    return () => {
      set.delete(feed);
      if (set.size === 0 && this.#feeds.get(accountId) === set) this.#feeds.delete(accountId);
    };
  }

  /** Shows the alert on every open overlay of the account, on every instance. */
  publish(accountId: number, alert: Alert): void {
    const bus = this.#options.bus;
    if (!bus) {
      this.#deliver(accountId, alert);
      return;
    }
    // The bus brings it back to this instance too; if it cannot, overlays here still get it.
    bus.send(accountId, alert).catch((error: unknown) => {
      this.#options.onBusError?.(error);
      this.#deliver(accountId, alert);
    });
  }

  #deliver(accountId: number, alert: Alert): void {
    const feeds = this.#feeds.get(accountId);
    if (!feeds) return;
    for (const feed of [...feeds]) {
      try {
        feed.offer(alert);
      } catch {
        // one broken stream does not keep the alert from the others
      }
    }
  }

  #catchUp(): void {
    const recent = this.#options.recent;
    if (!recent) return;
    for (const accountId of this.#feeds.keys()) {
      recent(accountId).then(
        (alerts) => {
          for (const alert of [...alerts].sort((a, b) => a.id - b.id)) this.#deliver(accountId, alert);
        },
        (error: unknown) => this.#options.onBusError?.(error),
      );
    }
  }

  /** Open alert streams of one account (or of all) on this instance. */
  connections(accountId?: number): number {
    if (accountId !== undefined) return this.#feeds.get(accountId)?.size ?? 0;
    let n = 0;
    for (const set of this.#feeds.values()) n += set.size;
    return n;
  }

  /** Ends every stream (server shutdown). */
  onShutdown(close: () => void): () => void {
    this.#closers.add(close);
    return () => this.#closers.delete(close);
  }
  shutdown(): void {
    for (const close of this.#closers) close();
    this.#closers.clear();
  }
}
