import type { StoredOverlayState } from "../../db/overlay.ts";

type Listener = (state: StoredOverlayState) => void;

/**
 * Fans a publish out to every open overlay of the account (OBS browser sources listening on SSE).
 * State-based rather than a log: a reconnecting overlay only ever needs the latest version.
 */
export class OverlayHub {
  readonly #listeners = new Map<number, Set<Listener>>();

  subscribe(accountId: number, listener: Listener): () => void {
    let set = this.#listeners.get(accountId);
    if (!set) {
      set = new Set();
      this.#listeners.set(accountId, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.#listeners.delete(accountId);
    };
  }

  publish(accountId: number, state: StoredOverlayState): void {
    for (const listener of this.#listeners.get(accountId) ?? []) listener(state);
  }

  /** Open overlay connections of one account (or of all). */
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
