/** Runs the backend CLI once, killing its whole process tree on timeout or cancellation. */
import { ToolError } from "../../lib/mcp/errors.ts";
import { type BoundedRunResult, runBounded } from "../../lib/process/run_bounded.ts";

/** What the backend printed and how it exited. */
export interface RunOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/** How to run the backend. */
export interface RunOptions {
  cwd: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Environment of the child; the server's own when omitted. */
  env?: Record<string, string>;
  /** Names the action in errors: `Cannot format SQL`. */
  action: string;
}

/**
 * Runs `command args` in `cwd`. The backend and everything it started are killed when `timeoutMs` passes
 * (→ `timeout`) or `signal` aborts; exit codes are returned, not judged, since each backend gives them its
 * own meaning.
 */
export async function runBackend(command: string, args: string[], options: RunOptions): Promise<RunOutput> {
  let result: BoundedRunResult;
  try {
    result = await runBounded(command, args, {
      cwd: options.cwd,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      ...(options.env ? { env: options.env, clearEnv: true } : {}),
    });
  } catch (error) {
    throw new ToolError(
      "unavailable",
      `${options.action}: cannot start "${command}": ${error instanceof Error ? error.message : error}`,
    );
  }
  if (result.stopped === "timeout") {
    throw new ToolError(
      "timeout",
      `${options.action}: the backend did not finish within ${options.timeoutMs / 1000} s and was stopped; ` +
        "sqlfluff needs about 1 s per statement: pass fewer files or set SQL_MCP_TIMEOUT_MS",
    );
  }
  if (result.stopped === "aborted" || options.signal?.aborted) {
    throw new ToolError("timeout", `${options.action}: cancelled`);
  }
  const decoder = new TextDecoder();
  return { code: result.code, stdout: decoder.decode(result.stdout), stderr: decoder.decode(result.stderr) };
}
