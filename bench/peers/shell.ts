/**
 * Shell against Desktop Commander: a job printing 200 MB in 100-byte lines drained to the end (throughput,
 * server peak RSS), and the grandchildren left alive after each one's kill tool. Linux: RSS from /proc.
 * @module
 */
import { listProcesses } from "../../lib/process/processes.ts";
import { pollUntil } from "../../tests/_support/poll.ts";
import { startPeer } from "../_support/peers.ts";
import type { Area } from "./row.ts";
import { startOurs } from "../_support/ours.ts";
import { resultText } from "./toolkits.ts";

const BYTES = 200_000_000;
const BIG = `yes '${"x".repeat(99)}' | head -c ${BYTES}`;
const TREE = "sleep 300 & echo pid:$!; sleep 300 & echo pid:$!; wait";
const PEER_TIME_LIMIT_MS = 240_000;

type Call = (name: string, args: Record<string, unknown>) => Promise<string>;

/** Peak RSS (VmHWM) of `pid` in MB, from /proc. */
async function peakRss(pid: number | null): Promise<number | null> {
  if (!pid) return null;
  const status = await Deno.readTextFile(`/proc/${pid}/status`).catch(() => "");
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return Number.isFinite(kb) ? kb / 1024 : null;
}

const pidsOf = (output: string) => [...output.matchAll(/^pid:(\d+)$/gm)].map((match) => Number(match[1]));

async function alive(pids: number[]): Promise<number> {
  const rows = await listProcesses() ?? [];
  return pids.filter((pid) => rows.some((row) => row.pid === pid && !row.zombie)).length;
}

function killAll(pids: number[]): void {
  for (const pid of pids) {
    try {
      Deno.kill(pid, "SIGKILL"); // whatever a kill tool left behind
    } catch {
      // Already gone.
    }
  }
}

/** Measures the area in `workspace`. */
export async function shell(workspace: string): Promise<Area> {
  const ours = await startOurs("shell", workspace);
  const oursCall: Call = async (name, args) =>
    resultText(await ours.client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 })).text;
  const dc = await startPeer("desktop-commander", { workspace });
  const dcCall: Call = async (name, args) =>
    resultText(await dc.client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 })).text;
  try {
    // Ours: start, then follow until the job is done.
    let started = performance.now();
    let out = await oursCall("shell_run", { command: BIG, wait_s: 50, timeout_s: 600 });
    const id = /^job (\d+) running/.exec(out)?.[1];
    while (id && / running /.test(out.split("\n")[0])) {
      out = await oursCall("shell_output", { job_id: Number(id), wait_s: 50 });
    }
    const oursMs = performance.now() - started;
    started = performance.now();
    await dcCall("start_process", { command: BIG, timeout_ms: PEER_TIME_LIMIT_MS });
    const dcMs = performance.now() - started;
    const [oursPeak, dcPeak] = [await peakRss(ours.pid), await peakRss(dc.pid)];

    // Tree kill.
    const job = await oursCall("shell_start", { command: TREE });
    const jobId = Number(/job (\d+)/.exec(job)?.[1]);
    let seen = "";
    await pollUntil(async () => {
      seen += `${await oursCall("shell_output", { job_id: jobId, wait_s: 1 })}\n`;
      return pidsOf(seen).length >= 2;
    });
    await oursCall("shell_kill", { job_id: jobId });
    const oursPids = pidsOf(seen);
    const oursSurvivors = await alive(oursPids);
    killAll(oursPids);
    const dcStarted = await dcCall("start_process", { command: TREE, timeout_ms: 1000 });
    await dcCall("force_terminate", { pid: Number(/PID (\d+)/.exec(dcStarted)?.[1]) });
    const dcPids = pidsOf(dcStarted);
    // It sends SIGINT, then SIGKILL to the shell after 1 s: give its grandchildren 3 s to go.
    await pollUntil(async () => (await alive(dcPids)) === 0, 3_000);
    const dcSurvivors = await alive(dcPids);
    killAll(dcPids);

    const mbps = (ms: number) => BYTES / 1e6 / (ms / 1000);
    return {
      id: "shell",
      title: "Shell: 200 MB of output, memory, tree kill",
      method: `\`${BIG.replace(/x{99}/, "x…").replace("|", "\\|")}\` drained to the end through each ` +
        "server over stdio, once each (Desktop Commander takes minutes; ours first, then theirs): " +
        "`shell_run` + `shell_output` against `start_process` with a 240 s timeout. Peak RSS is the " +
        "server process's VmHWM over the whole area. Tree kill: `" + TREE + "` killed with `shell_kill` / " +
        "`force_terminate`, then its two grandchildren checked by pid (Desktop Commander given 3 s).",
      peerColumns: ["Desktop Commander"],
      rows: [
        {
          metric: "throughput draining 200 MB",
          unit: "MB/s",
          ours: mbps(oursMs),
          peers: { "Desktop Commander": mbps(dcMs) },
          better: "higher",
          target: { kind: "ratio-min", value: 100 },
        },
        {
          metric: "server peak RSS",
          unit: "MB",
          ours: oursPeak,
          peers: { "Desktop Commander": dcPeak },
          better: "lower",
          target: { kind: "ratio-max", value: 0.5 },
        },
        {
          metric: "tree-kill survivors (of 2)",
          unit: "processes",
          ours: oursSurvivors,
          peers: { "Desktop Commander": dcSurvivors },
          better: "lower",
          target: { kind: "max", value: 0, unit: "survivors" },
        },
      ],
    };
  } finally {
    await ours.close();
    await dc.close();
  }
}
