/** Waiting for external state (a process, a file) without sleeping a guessed time: poll with a deadline. */

/** Polls `check` every 20 ms until it holds; false once `timeoutMs` passed (a hang guard, not a speed check). */
export async function pollUntil(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/** Like {@link pollUntil}, but throws with `what` in the message when the deadline passes. */
export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
): Promise<void> {
  if (!await pollUntil(check, timeoutMs)) throw new Error(`Timed out waiting for ${what}`);
}
