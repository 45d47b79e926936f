/**
 * shell-mcp: the CPU a real stdio server spends while it watches leftovers (background processes of exited
 * jobs). Starts N jobs that each leave `per_job` × `sleep 300` behind (jobs past the server's limit are
 * refused), then samples the server's CPU time (its own and its reaped children's: the `ps`/`grep`/`cat` it
 * runs) over a window. Linux only (/proc/<pid>/stat).
 * Run: `deno run -A bench/shell_leftovers_cpu.ts [jobs=100] [window_s=10] [per_job=1]`.
 * @module
 */
// deno-lint-ignore-file no-console -- a script whose output is the report.
import { Client, StdioClientTransport } from "../lib/mcp/sdk_client.ts";
import { listServers, runArgs } from "../tools/catalog.ts";

const LEFTOVERS = Number(Deno.args[0] ?? 100);
const WINDOW_S = Number(Deno.args[1] ?? 10);
const PER_JOB = Number(Deno.args[2] ?? 1);
const TICKS = 100; // USER_HZ on Linux

/** utime + stime + cutime + cstime of `pid`, in clock ticks. */
async function cpuTicks(pid: number): Promise<number> {
  const out = await new Deno.Command("cat", { args: [`/proc/${pid}/stat`], stdout: "piped" }).output();
  const line = new TextDecoder().decode(out.stdout);
  const fields = line.slice(line.lastIndexOf(")") + 2).split(" ");
  // After the comm: state is field 3, so utime (14) is index 11.
  return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
}

const server = listServers().find((entry) => entry.name === "shell")!;
const workspace = await Deno.makeTempDir({ prefix: "shell-leftovers-" });
const transport = new StdioClientTransport({
  command: Deno.execPath(),
  args: runArgs(server),
  cwd: workspace,
  env: Deno.env.toObject(),
  stderr: "pipe",
});
const client = new Client({ name: "bench", version: "0.0.0" });
await client.connect(transport);
const text = async (name: string, args: Record<string, unknown>) => {
  const result = await client.callTool({ name, arguments: args }) as { content: { text: string }[] };
  return result.content[0]?.text ?? "";
};
let kept = 0;
let refused = "";
for (let i = 0; i < LEFTOVERS; i++) {
  const reply = await text("shell_run", { command: "sleep 300 >/dev/null 2>&1 & ".repeat(PER_JOB) });
  if (/still run/.test(reply)) kept++;
  else refused ||= reply;
}
const pid = transport.pid!;
// Let the start-up burst settle, then measure the steady state.
await new Promise((resolve) => setTimeout(resolve, 3000));
const before = await cpuTicks(pid);
await new Promise((resolve) => setTimeout(resolve, WINDOW_S * 1000));
const used = (await cpuTicks(pid)) - before;
console.log(
  `${kept} of ${LEFTOVERS} jobs kept ${kept * PER_JOB} leftovers${
    refused ? ` (first refusal: ${refused.split("\n")[0]})` : ""
  }; ` +
    `server CPU over ${WINDOW_S} s: ${(used / TICKS).toFixed(2)} s = ${
      (100 * used / TICKS / WINDOW_S).toFixed(1)
    } % of a core`,
);
await client.close();
await Deno.remove(workspace, { recursive: true });
