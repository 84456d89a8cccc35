import type { StoredOverlayState } from "../../db/overlay.ts";

type Listener = (state: StoredOverlayState) => void;

/**
 * Carries publishes between instances (Redis pub/sub): every instance hears every publish, its own
 * included, and hands it to its hub's local listeners.
 */
export interface OverlayBus {
  /** Sends one publish to every instance; rejects when the bus is away. */
  send(accountId: number, state: StoredOverlayState): Promise<void>;
  /** Called with each publish heard, and with null after the bus reconnected (publishes may be lost). */
  listen(handler: (message: { accountId: number; state: StoredOverlayState } | null) => void): void;
}

export interface OverlayHubOptions {
  /** Several instances: publishes travel through this bus so overlays connected anywhere see them. */
  bus?: OverlayBus;
  /** The account's stored state, read again for open overlays after the bus was away. */
  load?: (accountId: number) => Promise<StoredOverlayState>;
  /** A publish could not go through the bus (open overlays here still get it). */
  onBusError?: (error: unknown) => void;
}

/**
 * Fans a publish out to every open overlay of the account (OBS browser sources listening on SSE).
 * State-based rather than a log: a reconnecting overlay only ever needs the latest version. With a
 * bus, overlays connected to other instances get it too; after the bus was away, open overlays are
 * sent the stored state again, so a publish lost meanwhile is caught up.
 */
export class OverlayHub {
  readonly #listeners = new Map<number, Set<Listener>>();
  /** The newest version handed to each account's open overlays (with a bus; dropped with them). */
  readonly #delivered = new Map<number, number>();
  readonly #bus: OverlayBus | undefined;
  readonly #options: OverlayHubOptions;

  constructor(options: OverlayHubOptions = {}) {
    this.#options = options;
    this.#bus = options.bus;
    this.#bus?.listen((message) => {
      if (message) this.#deliver(message.accountId, message.state);
      else this.#catchUp();
    });
  }

  /** `knownVersion`: the state the new overlay was just sent, so nothing older follows it. */
  subscribe(accountId: number, listener: Listener, knownVersion = -1): () => void {
    let set = this.#listeners.get(accountId);
    if (!set) {
      set = new Set();
      this.#listeners.set(accountId, set);
    }
    if (knownVersion > (this.#delivered.get(accountId) ?? -1)) this.#delivered.set(accountId, knownVersion);
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) {
        this.#listeners.delete(accountId);
        this.#delivered.delete(accountId);
      }
    };
  }

  publish(accountId: number, state: StoredOverlayState): void {
    if (!this.#bus) {
      this.#deliver(accountId, state);
      return;
    }
    // The bus brings it back to this instance too; if it cannot, overlays here still get it.
    this.#bus.send(accountId, state).catch((error: unknown) => {
      this.#options.onBusError?.(error);
      this.#deliver(accountId, state);
    });
  }

  #deliver(accountId: number, state: StoredOverlayState): void {
    const listeners = this.#listeners.get(accountId);
    if (!listeners) return;
    // Versions only grow: an older or repeated one (a publish that came back through the bus after
    // its timeout had already delivered it here) would take an overlay backwards.
    const last = this.#delivered.get(accountId) ?? -1;
    if (this.#bus && state.version <= last && state.version !== 0) return;
    this.#delivered.set(accountId, state.version);
    for (const listener of listeners) listener(state);
  }

  #catchUp(): void {
    const load = this.#options.load;
    if (!load) return;
    for (const accountId of this.#listeners.keys()) {
      load(accountId).then(
        (state) => this.#deliver(accountId, state),
        (error: unknown) => this.#options.onBusError?.(error),
      );
    }
  }

  /** Open overlay connections of one account (or of all) on this instance. */
  connections(accountId?: number): number {
    if (accountId !== undefined) return this.#listeners.get(accountId)?.size ?? 0;
    let n = 0;
    for (const set of this.#listeners.values()) n += set.size;
    return n;
  }

  /** Ends every stream (server shutdown); each listener is told with a null-state close. */
  readonly #closers = new Set<() => void>();
  onShutdown(close: () => void): () => void {
    this.#closers.add(close);
    return () => this.#closers.delete(close);
  }
  shutdown(): void {
    for (const close of this.#closers) close();
    this.#closers.clear();
  }
}
