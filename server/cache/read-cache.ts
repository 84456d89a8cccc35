/**
 * Rows read on every request (a command's settings), kept in memory until the next write: the owner
 * clears it on every write of its own and on every change by another process (data_version). Values
 * are frozen (shallowly, and their `options`), since every caller shares them. Past `max` entries it
 * starts over rather than grow.
 */
export class ReadCache<V extends object> {
  readonly #entries = new Map<string, V>();
  readonly #max: number;

  constructor(max = 100_000) {
    this.#max = max;
  }

  get(key: string, load: () => V): V {
    let value = this.#entries.get(key);
    if (value === undefined) {
      value = load();
      Object.freeze(value);
      if (this.#entries.size >= this.#max) this.#entries.clear();
      this.#entries.set(key, value);
    }
    return value;
  }

  clear(): void {
    this.#entries.clear();
  }
}
