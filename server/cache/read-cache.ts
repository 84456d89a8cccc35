import type { MaybePromise } from "../core/maybe-promise.ts";

/**
 * Rows read on every request (a command's settings), kept in memory until the next write: the owner
 * clears it on every write of its own and on every change by another process (data_version). Values
 * are frozen (shallowly, and their `options`), since every caller shares them. Past `max` entries it
 * starts over rather than grow. A hit answers at once; a miss once the loader has.
 */
export class ReadCache<V extends object> {
  readonly #entries = new Map<string, V>();
  readonly #max: number;
  /** Bumped by `clear()`: a load that started before it does not store its (older) answer after it. */
  #generation = 0;

  constructor(max = 100_000) {
    this.#max = max;
  }

  get(key: string, load: () => Promise<V>): MaybePromise<V> {
    const value = this.#entries.get(key);
    if (value !== undefined) return value;
    const generation = this.#generation;
    return load().then((loaded) => {
      Object.freeze(loaded);
      if (generation === this.#generation) {
        if (this.#entries.size >= this.#max) this.#entries.clear();
        this.#entries.set(key, loaded);
      }
      return loaded;
    });
  }

  /** Changes whenever the cache is cleared: what was built from its values before then is stale. */
  get generation(): number {
    return this.#generation;
  }

  clear(): void {
    this.#generation++;
    this.#entries.clear();
  }
}
