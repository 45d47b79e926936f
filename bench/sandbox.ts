/**
 * The sandbox's cost per job (issue 28; target: ≤ 10 ms added): spawn-to-exit of a trivial job with and
 * without it, in one run, rounds interleaved so load changes hit both alike. Two levels: the process alone
 * (`/bin/sh -c true` bare vs through the engine's bwrap command line, placeholders and all) and a whole
 * `shell_run("true")` round trip through an in-process client (MCP_SANDBOX=off vs the default).
 * Run: `deno run -A bench/sandbox.ts [rounds=40]`. Linux with bubblewrap only.
 * @module
 */
import { Client, InMemoryTransport } from "../lib/mcp/sdk_client.ts";
import { loadServerSdk } from "../lib/mcp/server.ts";
import { Workspace } from "../lib/workspace/workspace.ts";
import { createServer } from "../mcp/shell/server.ts";
import { Sandbox } from "../lib/sandbox/sandbox.ts";

const ROUNDS = Number(Deno.args[0] ?? 40);
const print = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(`${line}\n`));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "bench-sandbox-" }));
await new Deno.Command("git", { args: ["init", "-q", workspace] }).output();
const env = Deno.env.toObject();
const sandbox = new Sandbox({
  env,
  workspace: { roots: () => Promise.resolve({ roots: [workspace], allowDirs: [] }) },
});
const status = await sandbox.status();
if (!status.active) {
  print(`sandbox: not active here (${status.summary}); nothing to measure`);
  Deno.exit(0);
}

async function spawnBare(): Promise<void> {
  await new Deno.Command("/bin/sh", { args: ["-c", "true"], cwd: workspace, stdout: "null", stderr: "null" })
    .output();
}

async function spawnSandboxed(): Promise<void> {
  const job = (await sandbox.prepare(workspace))!;
  const { invocation, env } = job.wrap({ program: "/bin/sh", args: ["-c", "true"] }, Deno.env.toObject());
  const { success } = await new Deno.Command(invocation.program, {
    args: invocation.args,
    env,
    clearEnv: true,
    cwd: workspace,
    stdout: "null",
    stderr: "null",
  }).output();
  await job.release();
  if (!success) throw new Error("the sandboxed job failed");
}

async function client(sandboxed: boolean) {
  const handle = createServer({
    workspace: new Workspace({ cwd: workspace }),
    serverEnv: sandboxed ? env : { ...env, MCP_SANDBOX: "off" },
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const mcp = new Client({ name: "bench", version: "0" });
  await loadServerSdk();
  await handle.server.connect(serverSide);
  await mcp.connect(clientSide);
  return {
    run: async () => {
      await mcp.callTool({ name: "shell_run", arguments: { command: "true" } });
    },
    close: async () => {
      await mcp.close();
      await handle.close();
    },
  };
}

const off = await client(false);
const on = await client(true);
const variants = [spawnBare, spawnSandboxed, off.run, on.run];
for (const run of variants) await run(); // warm-up
const times = variants.map(() => [] as number[]);
for (let round = 0; round < ROUNDS; round++) {
  for (const [index, run] of variants.entries()) {
    const started = performance.now();
    await run();
    times[index].push(performance.now() - started);
  }
}
await off.close();
await on.close();
await sandbox.close();
await Deno.remove(workspace, { recursive: true });

const [bare, boxed, runOff, runOn] = times.map(median);
const row = (label: string, plain: number, sandboxed: number) =>
  `| ${label} | ${plain.toFixed(1)} | ${sandboxed.toFixed(1)} | +${(sandboxed - plain).toFixed(1)} | ` +
  `${(sandboxed / plain).toFixed(2)}× |`;
print(`sandbox: ${status.summary}`);
print(
  `median of ${ROUNDS} interleaved rounds, ms (load: ${Deno.loadavg().map((n) => n.toFixed(1)).join(" ")})`,
);
print("| spawn-to-exit | unsandboxed | sandboxed | added | ratio |");
print("| --- | --- | --- | --- | --- |");
print(row("`/bin/sh -c true` (process only)", bare, boxed));
print(row('`shell_run("true")` round trip', runOff, runOn));
