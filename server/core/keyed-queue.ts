/**
 * Runs the tasks of one key one after another, in this process: a read-check-write (a settings
 * update) cannot interleave with another for the same key while either waits for the database.
 * Keys with nothing queued hold no memory.
 */
export class KeyedQueue<K> {
  readonly #tails = new Map<K, Promise<unknown>>();

  run<T>(key: K, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => {});
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }
}
