/**
 * shell-mcp: (1) the overhead of a `shell_run("true")` round trip against a bare `Deno.Command` spawn, and
 * (2) draining a job that prints 1 GB against the same pipeline writing to /dev/null, with the server's
 * peak RSS; Desktop Commander's process tools side by side on both (skipped with `--no-peers`).
 * Run: `deno run -A bench/shell.ts [bytes=1000000000] [--no-peers]`. Linux: RSS comes from /proc.
 * @module
 */
import { Client, InMemoryTransport, StdioClientTransport } from "../lib/mcp/sdk_client.ts";
import { Workspace } from "../lib/workspace/workspace.ts";
import { createServer } from "../mcp/shell/server.ts";
import { listServers, REPO_ROOT, runArgs } from "../tools/catalog.ts";
import { os } from "../lib/platform/mod.ts";
import { startPeer } from "./_support/peers.ts";
import { drainStream } from "../lib/process/drain.ts";
import { listProcesses } from "../lib/process/processes.ts";
import { loadServerSdk } from "../lib/mcp/server.ts";

const args = Deno.args.filter((arg) => !arg.startsWith("--"));
const BYTES = Number(args[0] ?? 1_000_000_000);
const PEERS = !Deno.args.includes("--no-peers");
const RUNS = 20;
/** Desktop Commander keeps up to 50 MB of lines in memory; stop it before it takes the shared machine down. */
const PEER_RSS_LIMIT_MB = 3000;
const PEER_TIME_LIMIT_MS = 240_000;
// 100-byte lines, so line-oriented servers see a realistic log rather than one endless line.
const BIG = `yes '${"x".repeat(99)}' | head -c ${BYTES}`;

type Call = (command: string) => Promise<string>;
type Row = [label: string, ...cells: string[]];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value: number) => value.toFixed(1);

/** Medians of `RUNS` rounds; each round runs every variant once, so load changes hit all of them alike. */
async function timeRounds(variants: (() => Promise<unknown>)[]): Promise<number[]> {
  for (const run of variants) await run(); // warm-up
  const times = variants.map(() => [] as number[]);
  for (let i = 0; i < RUNS; i++) {
    for (const [index, run] of variants.entries()) {
      const started = performance.now();
      await run();
      times[index].push(performance.now() - started);
    }
  }
  return times.map(median);
}

/** Wall ms of draining `command`'s stdout in this process with a reused-buffer reader: Deno's own ceiling. */
async function bareDrain(command: string): Promise<number> {
  const started = performance.now();
  const child = new Deno.Command("bash", { args: ["-c", command], stdout: "piped", stderr: "piped" }).spawn();
  const drains = [drainStream(child.stdout, () => {}), drainStream(child.stderr, () => {})];
  await child.status;
  await Promise.all(drains.map((drain) => drain.done));
  return performance.now() - started;
}

/** `pid:N` lines printed by the tree command. */
function pidsOf(output: string): number[] {
  return [...output.matchAll(/^pid:(\d+)$/gm)].map((match) => Number(match[1]));
}

/** How many of `pids` are alive and not zombies. */
async function survivors(pids: number[]): Promise<number> {
  const rows = await listProcesses() ?? [];
  return pids.filter((pid) => rows.some((row) => row.pid === pid && !row.zombie)).length;
}

/** VmRSS and VmHWM (peak) of `pid` in MB, from /proc (Linux). */
async function rss(pid: number | null): Promise<{ now: number; peak: number } | undefined> {
  if (!pid) return undefined;
  try {
    const status = await Deno.readTextFile(`/proc/${pid}/status`);
    const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
    return { now: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
  } catch {
    return undefined;
  }
}

function text(result: unknown): string {
  const first = (result as { content?: { type: string; text?: string }[] }).content?.[0];
  return first?.type === "text" ? first.text ?? "" : "";
}

async function inMemoryShell(workspace: string) {
  const handle = createServer({
    workspace: new Workspace({ cwd: workspace }),
    serverEnv: Deno.env.toObject(),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "bench", version: "0" });
  await loadServerSdk();
  await handle.server.connect(serverSide);
  await client.connect(clientSide);
  return {
    call: (command: string) => client.callTool({ name: "shell_run", arguments: { command } }).then(text),
    close: async () => {
      await client.close();
      await handle.close();
    },
  };
}

async function stdioShell(workspace: string) {
  const server = listServers().find((entry) => entry.name === "shell")!;
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: runArgs(server),
    cwd: workspace,
    env: Deno.env.toObject(),
    stderr: "ignore",
  });
  const client = new Client({ name: "bench", version: "0" });
  await client.connect(transport);
  const call: Call = async (command) => {
    let out = text(
      await client.callTool(
        { name: "shell_run", arguments: { command, wait_s: 50, timeout_s: 3600 } },
        undefined,
        { timeout: 3_600_000 },
      ),
    );
    const id = /^job (\d+) running/.exec(out)?.[1];
    while (id && / running /.test(out.split("\n")[0])) {
      out = text(
        await client.callTool({ name: "shell_output", arguments: { job_id: Number(id), wait_s: 50 } }),
      );
    }
    return out;
  };
  return { call, client, pid: transport.pid, close: () => client.close() };
}

async function desktopCommander(workspace: string) {
  const peer = await startPeer("desktop-commander", { workspace });
  const call: Call = async (command) => {
    const started = text(
      await peer.client.callTool(
        { name: "start_process", arguments: { command, timeout_ms: PEER_TIME_LIMIT_MS } },
        undefined,
        { timeout: PEER_TIME_LIMIT_MS + 60_000 },
      ),
    );
    return started;
  };
  return { call, client: peer.client, pid: peer.pid, close: () => peer.close() };
}

/** Runs the big job through `call` while watching `pid`'s memory; aborts past the RSS limit. */
async function bigJob(call: Call, pid: number | null, kill?: () => void) {
  const before = await rss(pid);
  let aborted = "";
  const watchdog = setInterval(async () => {
    const now = await rss(pid);
    if (now && now.now > PEER_RSS_LIMIT_MB && kill && !aborted) {
      aborted = `aborted at ${now.now.toFixed(0)} MB RSS`;
      kill();
    }
  }, 200);
  const started = performance.now();
  let output = "";
  try {
    output = await call(BIG);
  } catch (error) {
    aborted ||= `failed: ${error instanceof Error ? error.message.slice(0, 80) : error}`;
  } finally {
    clearInterval(watchdog);
  }
  const wall = performance.now() - started;
  const after = await rss(pid);
  return { wall, before, after, aborted, responseChars: output.length };
}

const workspace = await Deno.makeTempDir({ prefix: "shell-bench-" });
const overhead: Row[] = [];
const throughput: Row[] = [];

// (1) Overhead of one round trip.
const memory = await inMemoryShell(workspace);
const stdio = await stdioShell(workspace);
const [bareTrue, bareBash, bareDetached, inMemory, overStdio] = await timeRounds([
  () => new Deno.Command("true", { stdout: "piped", stderr: "piped" }).output(),
  () => new Deno.Command("bash", { args: ["-c", "true"], stdout: "piped", stderr: "piped" }).output(),
  // What every job pays for a killable tree: its own session (setsid). Only spawn() honours `detached`:
  // `Command.output()` silently ignores it (checked: the child kept Deno's process group).
  () =>
    new Deno.Command("bash", { args: ["-c", "true"], stdout: "piped", stderr: "piped", detached: true })
      .spawn().output(),
  () => memory.call("true"),
  () => stdio.call("true"),
]);
await memory.close();
overhead.push(
  ['bare `Deno.Command("true")` (baseline)', ms(bareTrue), "1.00×", `${(bareTrue / bareBash).toFixed(2)}×`],
  ['bare `Deno.Command("bash", -c true)`', ms(bareBash), `${(bareBash / bareTrue).toFixed(2)}×`, "1.00×"],
  [
    'bare `Deno.Command("bash", -c true)`, `detached: true`, `spawn()`',
    ms(bareDetached),
    `${(bareDetached / bareTrue).toFixed(2)}×`,
    `${(bareDetached / bareBash).toFixed(2)}×`,
  ],
  [
    'shell-mcp `shell_run("true")`, in-memory client',
    ms(inMemory),
    `${(inMemory / bareTrue).toFixed(2)}×`,
    `${(inMemory / bareBash).toFixed(2)}×`,
  ],
  [
    'shell-mcp `shell_run("true")`, stdio client',
    ms(overStdio),
    `${(overStdio / bareTrue).toFixed(2)}×`,
    `${(overStdio / bareBash).toFixed(2)}×`,
  ],
);

// (2) Throughput of a 1 GB job (skipped with bytes=0).
let baseline = NaN;
const gb = (wall: number) => `${(BYTES / 1e9 / (wall / 1000)).toFixed(2)} GB/s`;
if (BYTES > 0) {
  const baselineStarted = performance.now();
  await new Deno.Command("bash", { args: ["-c", `${BIG} > /dev/null`] }).output();
  baseline = performance.now() - baselineStarted;
  throughput.push([
    `\`${BIG.replace(/x{99}/, "x…").replace("|", "\\|")} > /dev/null\` (baseline)`,
    ms(baseline),
    gb(baseline),
    "1.00",
    "—",
    "—",
  ]);
  const pipeStarted = performance.now();
  await new Deno.Command("bash", { args: ["-c", `${BIG} | cat > /dev/null`] }).output();
  const pipe = performance.now() - pipeStarted;
  throughput.push([
    "same `\\| cat > /dev/null` (one more pipe hop)",
    ms(pipe),
    gb(pipe),
    (baseline / pipe).toFixed(2),
    "—",
    "—",
  ]);
  const deno = await bareDrain(BIG);
  throughput.push([
    "bare Deno BYOB drain of the same job, in-process",
    ms(deno),
    gb(deno),
    (baseline / deno).toFixed(2),
    "—",
    "—",
  ]);
  const ours = await bigJob(stdio.call, stdio.pid);
  throughput.push([
    "shell-mcp over stdio (`shell_run` + `shell_output`)",
    ms(ours.wall),
    gb(ours.wall),
    (baseline / ours.wall).toFixed(2),
    `${ours.before?.now.toFixed(0)} → peak ${ours.after?.peak.toFixed(0)} MB`,
    String(ours.responseChars),
  ]);
}

// (3) Killing a tree: how many grandchildren survive the kill tool.
const TREE = "sleep 300 & echo pid:$!; sleep 300 & echo pid:$!; wait";
const kills: Row[] = [];
{
  const started = text(await stdio.client.callTool({ name: "shell_start", arguments: { command: TREE } }));
  const id = Number(/job (\d+)/.exec(started)?.[1]);
  let seen = "";
  while (pidsOf(seen).length < 2) {
    seen +=
      text(await stdio.client.callTool({ name: "shell_output", arguments: { job_id: id, wait_s: 5 } })) +
      "\n";
  }
  await stdio.client.callTool({ name: "shell_kill", arguments: { job_id: id } });
  kills.push(["shell-mcp `shell_kill`", `${await survivors(pidsOf(seen))} of 2`]);
}
await stdio.close();

if (PEERS) {
  const dc = await desktopCommander(workspace);
  const [dcTrue] = await timeRounds([() => dc.call("true")]);
  overhead.push([
    'Desktop Commander `start_process("true")`, stdio',
    ms(dcTrue),
    `${(dcTrue / bareTrue).toFixed(2)}×`,
    `${(dcTrue / bareBash).toFixed(2)}×`,
  ]);
  const started = text(
    await dc.client.callTool({ name: "start_process", arguments: { command: TREE, timeout_ms: 1000 } }),
  );
  const shellPid = Number(/PID (\d+)/.exec(started)?.[1]);
  await dc.client.callTool({ name: "force_terminate", arguments: { pid: shellPid } });
  // It sends SIGINT, then SIGKILL to the shell after 1 s: give it that and a little more.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const grandchildren = pidsOf(started);
  kills.push([
    "Desktop Commander `force_terminate`",
    `${await survivors(grandchildren)} of ${grandchildren.length}`,
  ]);
  for (const pid of grandchildren) {
    try {
      Deno.kill(pid, "SIGKILL"); // what it left behind
    } catch {
      // Already gone.
    }
  }
  const theirs = BYTES > 0
    ? await bigJob(dc.call, dc.pid, () => dc.pid && Deno.kill(dc.pid, "SIGKILL"))
    : undefined;
  if (theirs) {
    throughput.push([
      `Desktop Commander \`start_process\`${theirs.aborted ? ` (${theirs.aborted})` : ""}`,
      ms(theirs.wall),
      gb(theirs.wall),
      (baseline / theirs.wall).toFixed(2),
      `${theirs.before?.now.toFixed(0)} → peak ${theirs.after?.peak.toFixed(0) ?? "?"} MB`,
      String(theirs.responseChars),
    ]);
  }
  await dc.close().catch(() => {});
}
await Deno.remove(workspace, { recursive: true });

const table = (head: string[], rows: Row[]) => [
  `| ${head.join(" | ")} |`,
  `| ${head.map(() => "---").join(" | ")} |`,
  ...rows.map((row) => `| ${row.join(" | ")} |`),
];
const out = [
  `## shell-mcp (${os}/${Deno.build.arch}, deno ${Deno.version.deno}, ${navigator.hardwareConcurrency} CPUs)`,
  "",
  `Round trip of a trivial command, median of ${RUNS}:`,
  "",
  ...table(["what", "median ms", "vs bare `true`", "vs bare `bash -c true`"], overhead),
  "",
  ...(BYTES > 0
    ? [
      `A job printing ${(BYTES / 1e9).toFixed(2)} GB in 100-byte lines:`,
      "",
      ...table(
        ["what", "wall ms", "throughput", "speed vs baseline", "server RSS", "response chars"],
        throughput,
      ),
      "",
    ]
    : []),
  `Grandchildren of \`${TREE}\` still alive after the kill tool returned (checked by pid with ps):`,
  "",
  ...table(["what", "survivors"], kills),
  "",
  `(repo: ${REPO_ROOT})`,
];
Deno.stdout.writeSync(new TextEncoder().encode(out.join("\n") + "\n"));
