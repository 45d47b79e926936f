/**
 * `deno task bench:peers [area...]`: ours side by side with the peers a user would install instead, written
 * to docs/benchmarks/peers.md and docs/benchmarks.svg (both regenerated on every run). Peers are installed
 * pinned into the gitignored bench/.peers/ on first use. An area that fails is reported "not measured" with
 * the error, so the report is always whole. Areas: tokens, trajectory, latency, shell, search, edit.
 * @module
 */
import { join } from "node:path";
import { os } from "../../lib/platform/mod.ts";
import { REPO_ROOT } from "../../tools/catalog.ts";
import { type PeerKind, peerVersion } from "../_support/peers.ts";
import { renderChart } from "./chart.ts";
import { renderReport } from "./report.ts";
import type { Area } from "./row.ts";
import { tokensAtRest } from "./tokens_at_rest.ts";
import { trajectories } from "./trajectory.ts";
import { latency } from "./latency.ts";
import { edit } from "./edit.ts";
import { search } from "./search.ts";
import { shell } from "./shell.ts";

const AREAS: { id: string; title: string; run(workspace: string): Promise<Area> }[] = [
  { id: "tokens", title: "Tokens at rest", run: tokensAtRest },
  { id: "trajectory", title: "Trajectory replay: the token tax of a whole task", run: trajectories },
  { id: "latency", title: "Cold start and cheap calls", run: latency },
  { id: "shell", title: "Shell: 200 MB of output, memory, tree kill", run: shell },
  { id: "search", title: "Search on the 50k-file corpus", run: search },
  { id: "edit", title: "Edit correctness on the known-bytes cases", run: edit },
];

const encoder = new TextEncoder();
const log = (line: string) => Deno.stderr.writeSync(encoder.encode(`${line}\n`));

const only = Deno.args;
const started = performance.now();
const load = (await Deno.readTextFile("/proc/loadavg").catch(() => "unknown")).split(" ").slice(0, 3).join(
  " ",
);
const areas: Area[] = [];
for (const area of AREAS) {
  if (only.length && !only.includes(area.id)) continue;
  const workspace = await Deno.makeTempDir({ prefix: `bench-peers-${area.id}-` });
  const areaStarted = performance.now();
  log(`bench:peers: ${area.id}…`);
  try {
    areas.push(await area.run(workspace));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log(`bench:peers: ${area.id} failed: ${message}`);
    areas.push({
      id: area.id,
      title: area.title,
      method: "",
      peerColumns: [],
      rows: [],
      notMeasured: `it failed: ${message.slice(0, 300)}`,
    });
  } finally {
    await Deno.remove(workspace, { recursive: true }).catch(() => {});
  }
  log(`bench:peers: ${area.id} done in ${((performance.now() - areaStarted) / 1000).toFixed(0)} s`);
}

const cpu = (await Deno.readTextFile("/proc/cpuinfo").catch(() => "")).match(/model name\s*:\s*(.*)/)?.[1];
const kinds: PeerKind[] = ["desktop-commander", "filesystem", "ripgrep", "memory"];
const node = await new Deno.Command("node", { args: ["--version"] }).output().then(
  (out) => new TextDecoder().decode(out.stdout).trim(),
  () => "not found",
);
const info = {
  date: new Date().toISOString().slice(0, 16).replace("T", " ") + " UTC",
  machine: `${os}/${Deno.build.arch}, ${navigator.hardwareConcurrency} cores${cpu ? ` (${cpu})` : ""}`,
  load: `${load} (1/5/15 min load average)`,
  versions: [`deno ${Deno.version.deno}`, `node ${node}`, ...kinds.map(peerVersion)],
  minutes: (performance.now() - started) / 60_000,
};
const report = join(REPO_ROOT, "docs", "benchmarks", "peers.md");
const chart = join(REPO_ROOT, "docs", "benchmarks.svg");
if (only.length) {
  // A partial run must not overwrite the committed report with fewer areas: print it instead.
  Deno.stdout.writeSync(encoder.encode(renderReport(areas, info)));
} else {
  await Deno.writeTextFile(report, renderReport(areas, info));
  await Deno.writeTextFile(chart, renderChart(areas, `continue-mcp ÷ best peer (${info.date})`));
  // The repo is kept in `deno fmt` form (tables aligned, SVG too) so `fmt --check` passes after a run.
  await new Deno.Command(Deno.execPath(), { args: ["fmt", "--quiet", report, chart] }).output();
  log(`bench:peers: wrote ${report} and ${chart}`);
}
