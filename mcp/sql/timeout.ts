/**
 * The time a call may take. `SQL_MCP_TIMEOUT_MS` fixes it; otherwise it grows with the input, because
 * sqlfluff's cost is per byte of SQL, not per call (measured with sqlfluff 1.4.5 on the 2-core build
 * machine under load: lint ≈ 1 s per 556-byte SELECT, ≈ 1.8 s per KB; format = fix + lint ≈ 4.5 s per KB;
 * process start ≈ 1 s). See docs/servers/sql.md, "Speed".
 * @module
 */

/** Time every call gets before its size is counted. */
export const BASE_TIMEOUT_MS = 30_000;
/** The scaled timeout never exceeds this: past it, a batch returns what finished. */
export const MAX_TIMEOUT_MS = 300_000;
/** Added per KB of SQL: lint, and format (a fix plus a lint of what is left). */
export const PER_KB_MS = { lint: 2_000, format: 5_000 } as const;
/** Added per file: each one costs the backend a little beyond its bytes. */
const PER_FILE_MS = 100;

/** `SQL_MCP_TIMEOUT_MS` when it is a positive number, else undefined (the timeout then scales). */
export function timeoutFromEnv(env: Record<string, string | undefined>): number | undefined {
  const value = Number(env.SQL_MCP_TIMEOUT_MS);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** The scaled timeout of one call over `bytes` of SQL in `files` inputs. */
export function scaledTimeoutMs(step: "lint" | "format", bytes: number, files: number): number {
  const ms = BASE_TIMEOUT_MS + PER_KB_MS[step] * (bytes / 1024) + PER_FILE_MS * files;
  return Math.min(MAX_TIMEOUT_MS, Math.ceil(ms));
}
