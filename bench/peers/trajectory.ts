/**
 * Trajectory replay, the token tax as a user pays it: each scripted task run through each toolkit on a
 * fresh copy of the fixture repo, counting what the model receives — the toolkit's schemas at rest on every
 * turn (calls + the final answer) plus every tool result, o200k — the calls made, and the end state.
 * @module
 */
import { encode } from "gpt-tokenizer";
import { listTokens } from "../../tools/tokens.ts";
import { writeFixture } from "./fixture.ts";
import type { Area, Row } from "./row.ts";
import { TASKS, type ToolkitId } from "./tasks.ts";
import { oursToolkit, peerToolkit, type Toolkit } from "./toolkits.ts";

/** Our servers a user wires in for these tasks (direct); the peers as a user would install them. */
const TOOLKITS: { id: ToolkitId; label: string; start(root: string): Promise<Toolkit> }[] = [
  {
    id: "ours",
    label: "ours",
    start: (root) => oursToolkit(["shell", "search", "edit", "fs", "notes"], root),
  },
  {
    id: "dc",
    label: "Desktop Commander",
    start: (root) => peerToolkit("Desktop Commander", ["desktop-commander"], root),
  },
  {
    id: "fsrg",
    label: "filesystem + mcp-ripgrep + memory",
    start: (root) =>
      peerToolkit("filesystem + mcp-ripgrep + memory", ["filesystem", "ripgrep", "memory"], root),
  },
];

/** One task replayed through one toolkit: tokens, calls and whether the end state is right. */
export interface Replay {
  total: number;
  schemas: number;
  results: number;
  calls: number;
  errors: number;
  unavailable: string[];
  failure: string | null;
}

/** Replays `task` through one toolkit on a fresh fixture copy (also run alone by a scratch script). */
export async function replay(task: (typeof TASKS)[number], toolkitId: ToolkitId): Promise<Replay> {
  const root = await writeFixture();
  const toolkit = await TOOLKITS.find((t) => t.id === toolkitId)!.start(root);
  try {
    const atRest = listTokens(toolkit.tools);
    let results = 0, calls = 0, errors = 0, last = "", seen = "";
    const unavailable: string[] = [];
    for (const step of task.steps[toolkitId]) {
      const call = step({ root, last });
      if (!Array.isArray(call)) {
        unavailable.push(call.unavailable);
        continue;
      }
      const [tool, args] = call;
      const result = await toolkit.call(tool, args);
      calls++;
      if (result.isError) errors++;
      results += encode(result.text).length;
      last = result.text;
      seen += `${result.text}\n`;
    }
    const schemas = atRest * (calls + 1);
    const failure = await task.check(root, seen);
    return { total: schemas + results, schemas, results, calls, errors, unavailable, failure };
  } finally {
    await toolkit.close();
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

/** Why ours is above 0.5× the best right peer, from the numbers themselves ("" when it is not). */
function missedWhy(runs: Map<ToolkitId, Replay>): string {
  const ours = runs.get("ours");
  if (!ours || ours.failure) return "";
  const peers = [...runs].filter(([id, run]) => id !== "ours" && !run.failure);
  const best = peers.sort((a, b) => a[1].total - b[1].total)[0];
  if (!best || ours.total <= 0.5 * best[1].total) return "";
  const [id, peer] = best;
  const label = TOOLKITS.find((t) => t.id === id)!.label;
  return `missed because: ${label} needs ${peer.calls} calls to our ${ours.calls}` +
    `${
      peer.unavailable.length ? ` (it cannot run the tests, a step ours does: ${peer.unavailable[0]})` : ""
    }, ` +
    `its schemas cost ${Math.round(peer.schemas / (peer.calls + 1))} tokens a turn to our ${
      Math.round(ours.schemas / (ours.calls + 1))
    }, and its results ${peer.results} tokens to our ${ours.results}: halving needs both fewer schema ` +
    "tokens and fewer result tokens than a mechanical rename leaves room for";
}

/** Measures the area (its own fixture copies; `_workspace` unused). */
export async function trajectories(_workspace: string): Promise<Area> {
  const rows: Row[] = [];
  const details: string[] = [
    "| task | toolkit | total tokens | schemas × turns | results | calls | errors | end state | unavailable |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |",
  ];
  for (const task of TASKS) {
    const runs = new Map<ToolkitId, Replay>();
    for (const toolkit of TOOLKITS) {
      try {
        runs.set(toolkit.id, await replay(task, toolkit.id));
      } catch (error) {
        details.push(
          `| ${task.name} | ${toolkit.label} | failed: ${String(error).slice(0, 120)} | | | | | | |`,
        );
      }
    }
    for (const toolkit of TOOLKITS) {
      const run = runs.get(toolkit.id);
      if (!run) continue;
      details.push(
        `| ${task.name} | ${toolkit.label} | ${run.total.toLocaleString("en-US")} | ${
          run.schemas.toLocaleString("en-US")
        } | ${run.results.toLocaleString("en-US")} | ${run.calls} | ${run.errors} | ${
          run.failure ? `wrong: ${run.failure}` : "right"
        } | ${run.unavailable.join("; ") || "–"} |`,
      );
    }
    const right = (id: ToolkitId) => {
      const run = runs.get(id);
      return run && !run.failure ? run.total : null;
    };
    const why = missedWhy(runs);
    const wrong = TOOLKITS.filter((t) => t.id !== "ours" && runs.get(t.id)?.failure).map((t) => t.label);
    rows.push({
      metric: `${task.name}: tokens the model receives`,
      unit: "tokens",
      ours: right("ours"),
      peers: { "Desktop Commander": right("dc"), "filesystem + mcp-ripgrep + memory": right("fsrg") },
      better: "lower",
      target: { kind: "ratio-max", value: 0.5 },
      note: [
        runs.get("ours")?.failure ? `ours reached the wrong end state (${runs.get("ours")!.failure})` : "",
        wrong.length ? `n/a: ${wrong.join(", ")} did not reach the right end state (see below)` : "",
        why,
      ].filter(Boolean).join("; ") || undefined,
    });
  }
  return {
    id: "trajectory",
    title: "Trajectory replay: the token tax of a whole task",
    method:
      "Scripted tasks on a fixture repo (bench/peers/fixture.ts) written fresh for each toolkit; each " +
      "step is the natural call of that toolkit (bench/peers/tasks.ts). Tokens = o200k of the toolkit's " +
      "tools/list × (calls + 1 final turn) + o200k of every tool result. A peer whose end state is wrong " +
      "gets no ratio (n/a). Ours = shell, search, edit, fs and notes wired in directly.",
    peerColumns: ["Desktop Commander", "filesystem + mcp-ripgrep + memory"],
    rows,
    details,
  };
}
