/**
 * Startup of a server as a client sees it: spawn → initialize → tools/list, median of 10 spawns of
 * hello-mcp, against a bare `deno run` of an empty module measured in the same run.
 * @module
 */
import { join } from "node:path";
import { listServers, REPO_ROOT } from "../tools/catalog.ts";
import { inspectServer } from "../tools/inspect.ts";
import { os } from "../lib/platform/mod.ts";

const RUNS = 10;
const hello = listServers().find((server) => server.name === "hello")!;

const empty = await Deno.makeTempFile({ suffix: ".ts" });
const bare: number[] = [];
const startup: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const started = performance.now();
  await new Deno.Command(Deno.execPath(), { args: ["run", "--no-prompt", empty], stdout: "null" }).output();
  bare.push(performance.now() - started);
  const seen = await inspectServer({ ...hello, smoke: undefined }, { cwd: REPO_ROOT });
  if (!seen.ok) throw new Error(seen.error);
  startup.push(seen.startupMs);
}
await Deno.remove(empty);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const out = [
  `## hello-mcp startup (${RUNS} spawns, ${os}/${Deno.build.arch}, deno ${Deno.version.deno})`,
  "",
  "| what | median ms | min ms | max ms |",
  "| --- | --- | --- | --- |",
  row("bare `deno run` of an empty module (baseline)", bare),
  row("hello-mcp: spawn → initialize → tools/list", startup),
  "",
  `ratio: ${(median(startup) / median(bare)).toFixed(2)}× the bare deno startup`,
  `(entry: ${join("mcp", "hello", "main.ts")})`,
];
Deno.stdout.writeSync(new TextEncoder().encode(out.join("\n") + "\n"));

function row(label: string, values: number[]): string {
  return `| ${label} | ${median(values).toFixed(0)} | ${Math.min(...values).toFixed(0)} | ${
    Math.max(...values).toFixed(0)
  } |`;
}
