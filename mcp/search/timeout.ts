/** The hard timeout of one search, from `SEARCH_MCP_TIMEOUT_S`. */

/** Default seconds a search may run before ripgrep is stopped. */
export const DEFAULT_TIMEOUT_S = 30;

/** Milliseconds from the env value (seconds, fractions allowed); the default when unset or invalid. */
export function searchTimeoutMs(value: string | undefined): number {
  const seconds = Number(value);
  return value && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : DEFAULT_TIMEOUT_S * 1000;
}

/** The note added to partial results when the timeout stopped ripgrep. */
export function timeoutNote(timeoutMs: number, what: string): string {
  const took = timeoutMs < 1000 ? `${Math.round(timeoutMs)} ms` : `${Math.round(timeoutMs / 100) / 10} s`;
  return `Stopped after ${took} (timeout): ${what}`;
}
