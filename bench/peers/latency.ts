/**
 * Cold start (spawn → initialize → tools/list, 10 interleaved runs) and cheap call latency over stdio (100
 * interleaved calls each) for ours against the peer doing the same job; medians. Cheap calls go through a
 * bare JSON-lines client, the same for both sides: the SDK client's validation of each result is the
 * client's cost, about as large as a cheap call itself.
 * @module
 */
import type { LineClient } from "../_support/line_client.ts";
import { type PeerKind, startPeerLines } from "../_support/peers.ts";
import { type Area, interleave, median, type Row, type Target } from "./row.ts";
import { startOursLines } from "../_support/ours.ts";
import { cpuTimes, describeBusy, describeLoad, settle } from "../_support/settle.ts";

const STARTS = 10;
const CALLS = 100;
const WARM_UP = 5;

interface Pair {
  what: string;
  ours: string;
  peer: PeerKind;
  peerLabel: string;
  startTarget?: Target;
  call: {
    ours: [string, Record<string, unknown>];
    peer: (root: string) => [string, Record<string, unknown>];
  };
  callTarget: Target;
}

const PAIRS: Pair[] = [
  {
    what: "stat a file",
    ours: "fs",
    peer: "filesystem",
    peerLabel: "reference filesystem",
    startTarget: { kind: "ratio-max", value: 0.5 },
    call: {
      ours: ["fs_stat", { path: "small/a0.txt" }],
      peer: (root) => ["get_file_info", { path: `${root}/small/a0.txt` }],
    },
    callTarget: { kind: "max", value: 1, unit: "ms" },
  },
  {
    what: "list notes",
    ours: "notes",
    peer: "memory",
    peerLabel: "reference memory",
    call: { ours: ["notes_list", {}], peer: () => ["read_graph", {}] },
    callTarget: { kind: "max", value: 1, unit: "ms" },
  },
  {
    what: "search a small tree",
    ours: "search",
    peer: "ripgrep",
    peerLabel: "mcp-ripgrep",
    call: {
      ours: ["search_grep", { pattern: "needle", path: "small" }],
      peer: (root) => ["search", { pattern: "needle", path: `${root}/small` }],
    },
    callTarget: { kind: "max", value: 10, unit: "ms" },
  },
  {
    what: "`echo hi`",
    ours: "shell",
    peer: "desktop-commander",
    peerLabel: "Desktop Commander",
    call: {
      ours: ["shell_run", { command: "echo hi" }],
      peer: () => ["start_process", { command: "echo hi", timeout_ms: 5_000 }],
    },
    callTarget: { kind: "max", value: 20, unit: "ms" },
  },
];

async function smallTree(root: string): Promise<void> {
  await Deno.mkdir(`${root}/small`, { recursive: true });
  for (let i = 0; i < 100; i++) {
    await Deno.writeTextFile(`${root}/small/a${i}.txt`, `line one\n${i % 10 ? "hay" : "needle"} ${i}\n`);
  }
}

async function call(client: LineClient, [name, args]: [string, Record<string, unknown>]): Promise<void> {
  const result = await client.callTool(name, args);
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content).slice(0, 200)}`);
}

/** Measures the area in `workspace`. */
export async function latency(workspace: string): Promise<Area> {
  await smallTree(workspace);
  // Each timing part starts on a settled machine (the areas before it are heavy), and says at what load.
  const startLoad = describeLoad(await settle());
  const startRows: Row[][] = [];
  for (const pair of PAIRS) {
    const listed: number[][] = [[], []];
    const exited: number[][] = [[], []];
    /** Spawn → initialize → tools/list, then stdin closed → exit; each timed apart. */
    const coldStart = (side: number, start: () => Promise<LineClient>) => async () => {
      const started = performance.now();
      const client = await start();
      await client.request("tools/list");
      listed[side].push(performance.now() - started);
      const closed = performance.now();
      await client.close();
      exited[side].push(performance.now() - closed);
    };
    await interleave(STARTS, [
      coldStart(0, () => startOursLines(pair.ours, workspace)),
      coldStart(1, () => startPeerLines(pair.peer, { workspace })),
    ]);
    const sides = (values: number[][]) => ({
      ours: median(values[0]),
      peers: { [pair.peerLabel]: median(values[1]) },
    });
    startRows.push([{
      metric: `cold start ${pair.ours}-mcp vs ${pair.peerLabel}`,
      unit: "ms",
      ...sides(listed),
      better: "lower",
      target: pair.startTarget,
      note: pair.startTarget ? `timing target; ${startLoad}` : undefined,
    }, {
      metric: `exit after stdin close: ${pair.ours}-mcp vs ${pair.peerLabel}`,
      unit: "ms",
      ...sides(exited),
      better: "lower",
    }]);
  }
  const callLoad = describeLoad(await settle());
  const callRows: Row[] = [];
  for (const pair of PAIRS) {
    const ours = await startOursLines(pair.ours, workspace);
    const peer = await startPeerLines(pair.peer, { workspace });
    try {
      const peerCall = pair.call.peer(workspace);
      for (let i = 0; i < WARM_UP; i++) {
        await call(ours, pair.call.ours);
        await call(peer, peerCall);
      }
      const cpuBefore = await cpuTimes();
      const [oursCalls, peerCalls] = await interleave(CALLS, [
        () => call(ours, pair.call.ours),
        () => call(peer, peerCall),
      ]);
      callRows.push({
        metric: `${pair.what}: ${pair.call.ours[0]} vs ${peerCall[0]}`,
        unit: "ms",
        ours: median(oursCalls),
        peers: { [pair.peerLabel]: median(peerCalls) },
        better: "lower",
        target: pair.callTarget,
        note: [`timing target; ${callLoad}`, describeBusy(cpuBefore, await cpuTimes())].filter(Boolean)
          .join("; "),
      });
    } finally {
      await ours.close();
      await peer.close();
    }
  }
  return {
    id: "latency",
    title: "Cold start and cheap calls",
    method: `Each part waits (up to 2 min) for the 1-min load average to fall below 1 and notes the load ` +
      "(a cheap-call row also notes how busy all cores were during its calls: another job's burst shows). " +
      `Cold start: spawn → initialize → tools/list answered, then stdin closed → exit, timed apart, ${STARTS} ` +
      `runs interleaved with the peer, medians (ours is \`deno run\` from source with a warm Deno cache, ` +
      `answering the handshake from its committed tools.json before it loads its modules; peers are ` +
      `\`node\`). Cheap calls: ${CALLS} tools/call requests over one stdio connection after ${WARM_UP} ` +
      "warm-up calls, interleaved with the peer, median wall time from writing the request line to reading " +
      "the answer line. Both parts use a bare JSON-lines client (no schema validation) for both sides — the " +
      "SDK client's zod/Ajv check of each result is client cost, not the server's. The small tree is 100 " +
      "two-line files.",
    peerColumns: ["reference filesystem", "reference memory", "mcp-ripgrep", "Desktop Commander"],
    rows: PAIRS.flatMap((_, index) => [...startRows[index], callRows[index]]),
  };
}
