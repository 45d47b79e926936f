/**
 * Runs commands as sandboxed jobs of a job registry (no MCP server: this file needs no npm package, so the
 * user nobody can run it with an empty module cache) and prints each result as JSON lines. Used by
 * sandbox_nobody_test.ts: `deno run -A tests/mcp/shell/_nobody_jobs.ts <workspace> <command>...`.
 * @module
 */
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { Sandbox } from "../../../lib/sandbox/sandbox.ts";
import { JobRegistry } from "../../../mcp/shell/jobs.ts";

const [cwd, ...commands] = Deno.args;
const workspace = new Workspace({ cwd });
const env = Deno.env.toObject();
const sandbox = new Sandbox({
  env,
  workspace: { roots: () => Promise.resolve({ roots: workspace.roots, allowDirs: [] }) },
});
const jobs = new JobRegistry({ workspace, serverEnv: env, sandbox, graceMs: 500 });
const decoder = new TextDecoder();
const lines: string[] = [JSON.stringify({ status: (await sandbox.status()).summary })];
for (const command of commands) {
  const job = await jobs.start({ command, timeoutMs: 30_000 });
  await job.finished;
  const slice = job.log.read(0);
  lines.push(JSON.stringify({
    command,
    exit: job.exitCode,
    stdout: decoder.decode(slice.stdout),
    stderr: decoder.decode(slice.stderr),
    note: job.takeSandboxNote() ?? null,
  }));
}
await jobs.closeAll();
Deno.stdout.writeSync(new TextEncoder().encode(lines.join("\n") + "\n"));
