/**
 * A log line that a flood must not repeat: the first is written, then at most one an interval, saying how
 * many were held back. For what an outsider can trigger at will (refused requests, failed accepts).
 * @module
 */

/** Lines are written at most this often. */
export const THROTTLE_INTERVAL_MS = 60_000;

/** Wraps `write` so it runs at most once an interval; a held-back count is added to the next line. */
export function throttled(
  write: (message: string) => void,
  intervalMs = THROTTLE_INTERVAL_MS,
  now: () => number = () => performance.now(),
): (message: string) => void {
  let writtenAt = -Infinity;
  let held = 0;
  return (message) => {
    if (now() - writtenAt < intervalMs) {
      held++;
      return;
    }
    write(held > 0 ? `${message} (${held} more like it since the last report)` : message);
    writtenAt = now();
    held = 0;
  };
}
