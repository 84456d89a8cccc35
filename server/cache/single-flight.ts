/**
 * Collapses concurrent calls for the same key into one: N identical cache misses arriving together
 * cause one upstream request, and all N get its result (or its error). Nothing is kept after the call
 * settles; caching the result is the caller's business.
 */
export class SingleFlight<K, V> {
  readonly #inFlight = new Map<K, Promise<V>>();

  run(key: K, fn: () => Promise<V>): Promise<V> {
    const running = this.#inFlight.get(key);
    if (running) return running;
    // Starting fn on the next microtask registers the flight first, even if fn throws synchronously.
    const promise = Promise.resolve()
      .then(fn)
      .finally(() => this.#inFlight.delete(key));
    this.#inFlight.set(key, promise);
    return promise;
  }

  /** Calls in progress (for diagnostics and tests). */
  get size(): number {
    return this.#inFlight.size;
  }
}
