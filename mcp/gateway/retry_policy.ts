/**
 * When a downstream server that failed may be tried again: the first failure retries at once (a crash
 * mid-call restarts on the next call), then exponential backoff, then a circuit breaker that refuses
 * calls for a cool-down after repeated failures in a row.
 * @module
 */

/** Backoff and breaker settings. */
export interface RetryOptions {
  /** The delay after the second failure in a row, doubled after each further one. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Failures in a row that open the breaker. */
  breakerThreshold: number;
  breakerCooldownMs: number;
}

/** Defaults: 1 s, 2 s, 4 s… capped at 30 s; 5 failures in a row open the breaker for 60 s. */
export const DEFAULT_RETRY: RetryOptions = {
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  breakerThreshold: 5,
  breakerCooldownMs: 60_000,
};

/** How long to wait after `failures` failures in a row before the next attempt. */
export function retryDelayMs(failures: number, options: RetryOptions = DEFAULT_RETRY): number {
  if (failures <= 1) return 0;
  if (failures >= options.breakerThreshold) return options.breakerCooldownMs;
  return Math.min(options.baseDelayMs * 2 ** (failures - 2), options.maxDelayMs);
}

/** Whether `failures` in a row have opened the breaker. */
export function breakerOpen(failures: number, options: RetryOptions = DEFAULT_RETRY): boolean {
  return failures >= options.breakerThreshold;
}
