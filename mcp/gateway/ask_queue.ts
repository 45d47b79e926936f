/**
 * Questions to the user one at a time, in the order they came: a question whose signal aborts while it
 * waits leaves the queue at once, and one being asked is withdrawn, so the queue never waits on a request
 * that is gone.
 * @module
 */

/** A FIFO of asks; each runs alone. */
export class AskQueue {
  #tail: Promise<void> = Promise.resolve();

  /** Runs `ask` after every earlier one settled or was aborted; rejects at once when `signal` aborts. */
  async run<T>(signal: AbortSignal, ask: () => Promise<T>): Promise<T> {
    const before = this.#tail;
    const done = Promise.withResolvers<void>();
    this.#tail = before.then(() => done.promise);
    try {
      await untilAborted(before, signal);
      signal.throwIfAborted();
      // `ask` passes `signal` on (the SDK withdraws the request upstream when it aborts): this returns then.
      return await ask();
    } finally {
      done.resolve();
    }
  }
}

/** `promise`, or a rejection as soon as `signal` aborts. */
function untilAborted(promise: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    promise.then(resolve, resolve).finally(() => signal.removeEventListener("abort", abort));
  });
}
