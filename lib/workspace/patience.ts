/** Waiting for an answer only so long, while the answer may still land later. */

/** How long to wait, and what to do (once) when that passes first. */
export interface Patience {
  ms: number;
  onTimeout(): void;
}

/**
 * Settles when `work` settles or `patience.ms` passes, whichever is first (calling `onTimeout` then);
 * `work` runs on either way. Never rejects: the waiters only need to know they may go on.
 */
export function waitAtMost(work: Promise<unknown>, patience: Patience): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      patience.onTimeout();
      resolve();
    }, patience.ms);
  });
  const done = work.then(() => {}, () => {}).finally(() => clearTimeout(timer));
  return Promise.race([done, late]);
}
