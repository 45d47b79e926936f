/**
 * The time a call may take. `SQL_MCP_TIMEOUT_MS` fixes it; otherwise it grows with the input, because a
 * backend's cost is per byte of SQL, not per call. Rates per backend (2-core build machine):
 * - sqlfluff 1.4.5 under load: lint ≈ 1 s per 556-byte SELECT, ≈ 1.8 s per KB; format = fix + lint ≈ 4.5 s
 *   per KB; process start ≈ 1 s. sqlfluff 4.5 is about as fast (docs/benchmarks/sql.md).
 * - sqruff 0.44 (PyPI build, single-threaded): lint ≈ 25 ms per KB, fix ≈ 90 ms per KB, start ≈ 0.06 s;
 *   its rates below leave ~8× for load, so a 200-file batch still ends within an MCP client's usual 60 s.
 * See docs/servers/sql.md, "Speed".
 * @module
 */
import type { BackendKind } from "./backend.ts";

/** The scaled timeout never exceeds this: past it, a batch returns what finished. */
export const MAX_TIMEOUT_MS = 300_000;

/** How one backend's timeout scales. */
export interface TimeoutRates {
  /** Time every call gets before its size is counted. */
  baseMs: number;
  /** Added per KB of SQL: lint, and format (a fix plus a lint of what is left). */
  perKbMs: { lint: number; format: number };
  /** Added per file: each one costs the backend a little beyond its bytes. */
  perFileMs: number;
}

/** The rates per backend kind. */
export const TIMEOUT_RATES: Record<BackendKind, TimeoutRates> = {
  sqlfluff: { baseMs: 30_000, perKbMs: { lint: 2_000, format: 5_000 }, perFileMs: 100 },
  sqruff: { baseMs: 10_000, perKbMs: { lint: 250, format: 1_000 }, perFileMs: 20 },
};

/** `SQL_MCP_TIMEOUT_MS` when it is a positive number, else undefined (the timeout then scales). */
export function timeoutFromEnv(env: Record<string, string | undefined>): number | undefined {
  const value = Number(env.SQL_MCP_TIMEOUT_MS);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** The scaled timeout of one call over `bytes` of SQL in `files` inputs, for the backend `kind`. */
export function scaledTimeoutMs(
  step: "lint" | "format",
  bytes: number,
  files: number,
  kind: BackendKind = "sqlfluff",
): number {
  const rates = TIMEOUT_RATES[kind];
  const ms = rates.baseMs + rates.perKbMs[step] * (bytes / 1024) + rates.perFileMs * files;
  return Math.min(MAX_TIMEOUT_MS, Math.ceil(ms));
}
