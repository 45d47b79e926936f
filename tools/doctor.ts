/**
 * `deno task doctor`: what a new user runs first. Starts every server under `mcp/` over stdio exactly as
 * Continue would (a subprocess with the workspace as cwd), lists its tools, makes one smoke call, and
 * prints one table, then the external tools found. Exits non-zero when a server fails.
 * @module
 */
import { listServers } from "./catalog.ts";
import { inspectServer } from "./inspect.ts";
import { listTokens } from "./tokens.ts";
import { findExternals } from "./externals.ts";
import { gatewayHealth } from "./gateway_health.ts";
import { warmCache } from "./warm_cache.ts";
import { Sandbox } from "../lib/sandbox/sandbox.ts";
import { Workspace } from "../lib/workspace/workspace.ts";

const encoder = new TextEncoder();
const print = (line = "") => Deno.stdout.writeSync(encoder.encode(`${line}\n`));

const cwd = Deno.cwd();
const rows: string[][] = [["server", "status", "tools", "tokens", "startup", "smoke call"]];
const tail = new Set<string>(["gateway-mcp"]);
const failures: string[] = [];
// Fetch every server's modules now, once, so that each later start (and the installed wrappers, which
// run with --cached-only) needs no network.
const cache = await warmCache(listServers());
if (!cache.ok) failures.push(`module cache: ${cache.error}`);
for (const server of listServers()) {
  const seen = await inspectServer(server, { cwd });
  if (server.tail) tail.add(`${server.name}-mcp`);
  const smoke = seen.smoke ? `${seen.smoke.tool} → ${oneLine(seen.smoke.text)}` : "-";
  rows.push([
    `${server.name}-mcp`,
    seen.ok ? "ok" : "FAIL",
    String(seen.tools.length),
    String(listTokens(seen.tools)),
    `${Math.round(seen.startupMs)} ms`,
    smoke,
  ]);
  if (!seen.ok) {
    failures.push(`${server.name}-mcp: ${seen.error ?? `smoke call failed: ${seen.smoke?.text}`}`);
  }
}
// The gateway is what stands in for the long tail: its tools, and those of the servers behind it (tail in
// server.json), are counted apart from the direct servers'.
const direct = rows.slice(1).filter((row) => !tail.has(row[0]));
const total = direct.reduce((sum, row) => sum + Number(row[3]), 0);
print(`continue-mcp doctor — workspace ${cwd}`);
print();
printTable(rows);
print(`\nall direct servers' tools at rest: ${total} tokens (o200k; the gateway's and tail servers' apart)`);

const gateway = await gatewayHealth(Deno.env.toObject());
print(`\n${gateway.heading}`);
if (gateway.rows.length) printTable(gateway.rows.map((row) => ["", ...row]));
failures.push(...gateway.problems);

print("\nexternal tools:");
let warnings = 0;
for (const external of await findExternals()) {
  const mark = external.found ? "ok  " : external.required ? "FAIL" : "warn";
  if (!external.found && external.required) failures.push(`${external.name}: ${external.detail}`);
  if (!external.found && !external.required) warnings++;
  print(`  ${mark} ${external.name.padEnd(12)} ${external.detail}`);
}

// The shell server's sandbox, as a server started here would run it (issue 28): never silently off.
const workspace = Workspace.fromEnv();
const sandbox = new Sandbox({
  env: Deno.env.toObject(),
  inspect: true,
  workspace: { roots: () => Promise.resolve({ roots: workspace.roots, allowDirs: workspace.allowDirs }) },
});
const sandboxed = await sandbox.status();
print(`
shell sandbox: ${sandboxed.summary}`);
for (const problem of sandboxed.problems) print(`  warn ${problem}`);
if (sandboxed.refusing) failures.push(`shell sandbox: ${sandboxed.summary}`);
else if (!sandboxed.active) warnings++;

if (failures.length) {
  print(`\n${failures.length} problem(s):`);
  for (const failure of failures) print(`- ${failure}`);
  Deno.exit(1);
}
print(`\nall servers ok${warnings ? ` (${warnings} warning(s), see above)` : ""}`);

function printTable(table: string[][]): void {
  const widths = table[0].map((_, column) => Math.max(...table.map((row) => row[column].length)));
  for (const row of table) print(row.map((cell, column) => cell.padEnd(widths[column])).join("  ").trimEnd());
}

function oneLine(text: string): string {
  const line = text.replaceAll(/\s+/g, " ").trim();
  return line.length > 40 ? `${line.slice(0, 39)}…` : line;
}
