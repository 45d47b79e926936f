/** The backend timeout: `SQL_MCP_TIMEOUT_MS`, else 30 s. */

/** Default time one backend run may take. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** `SQL_MCP_TIMEOUT_MS` when it is a positive number, else {@link DEFAULT_TIMEOUT_MS}. */
export function timeoutFromEnv(env: Record<string, string | undefined>): number {
  const value = Number(env.SQL_MCP_TIMEOUT_MS);
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_TIMEOUT_MS;
}
