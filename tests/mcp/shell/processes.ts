/** Helpers for the shell server's tests: a server on a temp workspace, pid liveness, polling with a deadline. */
import { createServer } from "../../../mcp/shell/server.ts";
import type { ShellOptions } from "../../../mcp/shell/server.ts";
import type { McpServerHandle } from "../../../lib/mcp/server.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { listProcesses } from "../../../lib/process/processes.ts";

/** A shell server rooted at `cwd` with a short kill grace (tests need not wait 2 s per stubborn tree). */
export function shellServer(cwd: string, options: Partial<ShellOptions> = {}): McpServerHandle {
  return createServer({
    workspace: new Workspace({ cwd }),
    serverEnv: Deno.env.toObject(),
    graceMs: 500,
    ...options,
  });
}

/** Whether `pid` is a live process (a zombie counts as dead: it runs nothing and holds no pipe). */
export async function isAlive(pid: number): Promise<boolean> {
  const rows = await listProcesses();
  if (rows === null) throw new Error("ps is needed to check pids");
  return rows.some((row) => row.pid === pid && !row.zombie);
}

/** Whether every pid is alive. */
export async function allAlive(pids: readonly number[]): Promise<boolean> {
  return (await Promise.all(pids.map(isAlive))).every(Boolean);
}

/** The pids a job printed, one per line (commands in tests `echo $!` after each background child). */
export function pidsIn(text: string): number[] {
  return [...text.matchAll(/^pid:(\d+)$/gm)].map((match) => Number(match[1]));
}

/** Kills pids a failed test left behind, so one failure does not leak 300-second sleeps. */
export function reap(pids: number[]): void {
  for (const pid of pids) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch {
      // Already gone: the expected case.
    }
  }
}

export { waitFor } from "../../_support/poll.ts";
