/** Serialises work on the same key (a real file path) within one server: two edits of one file never interleave. */

/** A per-key queue: `run(key, fn)` waits for earlier work on `key` to finish first. */
export class KeyedLock {
  #tails = new Map<string, Promise<unknown>>();

  /** Runs `fn` after every earlier `run` with the same key has settled. */
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const current = previous.then(fn, fn);
    const tail = current.catch(() => {});
    this.#tails.set(key, tail);
    try {
      return await current;
    } finally {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }
}
