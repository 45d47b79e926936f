/** Runs the backend CLI once, killing it on timeout or cancellation. */
import { ToolError } from "../../lib/mcp/errors.ts";

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
 * Runs `command args` in `cwd`. The child is killed (SIGKILL) when `timeoutMs` passes (→ `timeout`) or
 * `signal` aborts; exit codes are returned, not judged, since each backend gives them its own meaning.
 */
export async function runBackend(command: string, args: string[], options: RunOptions): Promise<RunOutput> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(command, {
      args,
      cwd: options.cwd,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      ...(options.env ? { env: options.env, clearEnv: true } : {}),
    }).spawn();
  } catch (error) {
    throw new ToolError(
      "unavailable",
      `${options.action}: cannot start "${command}": ${error instanceof Error ? error.message : error}`,
    );
  }
  let timedOut = false;
  const kill = () => {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, options.timeoutMs);
  options.signal?.addEventListener("abort", kill, { once: true });
  if (options.signal?.aborted) kill();
  try {
    const output = await child.output();
    if (timedOut) {
      throw new ToolError(
        "timeout",
        `${options.action}: the backend did not finish within ${
          options.timeoutMs / 1000
        } s and was stopped; ` +
          "sqlfluff needs about 1 s per statement: pass fewer files or set SQL_MCP_TIMEOUT_MS",
      );
    }
    if (options.signal?.aborted) throw new ToolError("timeout", `${options.action}: cancelled`);
    const decoder = new TextDecoder();
    return {
      code: output.code,
      stdout: decoder.decode(output.stdout),
      stderr: decoder.decode(output.stderr),
    };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", kill);
  }
}
