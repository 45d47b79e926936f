/** Helpers for the shell server's tests: a server on a temp workspace, pid liveness, polling with a deadline. */
import { createServer } from "../../../mcp/shell/server.ts";
import type { ShellOptions } from "../../../mcp/shell/server.ts";
import type { McpServerHandle } from "../../../lib/mcp/server.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { listProcesses } from "../../../lib/process/processes.ts";
import { isWindows } from "../../../lib/platform/mod.ts";

/** A shell server rooted at `cwd` with a short kill grace (tests need not wait 2 s per stubborn tree). */
export function shellServer(cwd: string, options: Partial<ShellOptions> = {}): McpServerHandle {
  return createServer({
    workspace: new Workspace({ cwd }),
    serverEnv: Deno.env.toObject(),
    graceMs: 500,
    ...options,
  });
}

/**
 * Tests that follow the pids a job prints (`echo $!`) check the host's process handling, which jobs get
 * with MCP_SANDBOX=off: a sandboxed job sees its own PID namespace, where those numbers mean other
 * processes. The sandboxed equivalents (sandbox_process_test.ts) find processes by their command lines.
 */
export const UNSANDBOXED = { MCP_SANDBOX: "off" };

/** {@link shellServer} with jobs outside the sandbox (see {@link UNSANDBOXED}). */
export function unsandboxedServer(cwd: string, options: Partial<ShellOptions> = {}): McpServerHandle {
  return shellServer(cwd, { serverEnv: { ...Deno.env.toObject(), ...UNSANDBOXED }, ...options });
}

/** Whether `pid` is a live process (a zombie counts as dead: it runs nothing and holds no pipe). */
export async function isAlive(pid: number): Promise<boolean> {
  if (isWindows) return await windowsPidAlive(pid);
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

/** Windows has no `ps`: `tasklist` filtered by pid prints a CSV row only when the process exists. */
async function windowsPidAlive(pid: number): Promise<boolean> {
  const args = ["/FI", `PID eq ${pid}`, "/NH", "/FO", "CSV"];
  const output = await new Deno.Command("tasklist", { args, stdout: "piped", stderr: "null" }).output();
  return new TextDecoder().decode(output.stdout).includes(`"${pid}"`);
}

/**
 * A command that runs `js` in a `deno eval` child, the same in bash, sh and pwsh (single quotes are literal
 * in all of them): tests written with it run on Windows too. `js` quotes its strings with backticks.
 */
export function denoEval(js: string): string {
  if (js.includes("'")) throw new Error("denoEval: quote JS strings with backticks");
  return `deno eval '${js}'`;
}

/**
 * A command whose `deno eval` starts `count` children that sleep 300 s and prints `pid:N` for each; with
 * `wait` it also prints its own pid and waits for them, else it exits at once and leaves them running.
 */
export function sleepers(count: number, options: { wait: boolean } = { wait: true }): string {
  const spawn = "new Deno.Command(Deno.execPath(), { args: [`eval`, `setTimeout(() => {}, 300000)`], " +
    "stdin: `null`, stdout: `null`, stderr: `null` }).spawn()";
  const kids = `const kids = Array.from({ length: ${count} }, () => ${spawn});` +
    " for (const kid of kids) console.log(`pid:${kid.pid}`);";
  const end = options.wait
    ? " console.log(`pid:${Deno.pid}`); await Promise.all(kids.map((kid) => kid.status));"
    : " for (const kid of kids) kid.unref();";
  return denoEval(kids + end);
}

/** JS for {@link denoEval} that defines `readLine()`: the next line of stdin without its newline, null at EOF. */
export const readLineJs =
  "const chunks = Deno.stdin.readable.pipeThrough(new TextDecoderStream()).values();" +
  " let pending = ``; const readLine = async () => { while (!pending.includes(`\\n`)) {" +
  " const next = await chunks.next(); if (next.done) return null; pending += next.value; }" +
  " const end = pending.indexOf(`\\n`); const line = pending.slice(0, end); pending = pending.slice(end + 1);" +
  " return line; };";
