/**
 * gateway-mcp under a progress flood: a downstream server sends N progress notifications (100,000 by
 * default) as fast as it can write them during one call, while the client keeps calling another server's
 * tool. Reports the gateway process's peak RSS (VmHWM, Linux), the flood call's duration, how many
 * notifications reached the client, and the other server's call latency (p50, max) during the flood.
 * Run: `deno run -A bench/gateway_progress_flood.ts [count=100000]`.
 * @module
 */
// deno-lint-ignore-file no-console -- a script whose output is the report.
import { fileURLToPath } from "node:url";
import { Client, StdioClientTransport } from "../lib/mcp/sdk_client.ts";
import type { CallToolResult } from "../lib/mcp/sdk.ts";
import { listServers, runArgs } from "../tools/catalog.ts";

const COUNT = Number(Deno.args[0] ?? 100_000);
const servers = fileURLToPath(new URL("../tests/mcp/gateway/_servers/", import.meta.url));
const script = (name: string) => ["run", "--no-prompt", "--quiet", "-A", `${servers}${name}`];
const dir = await Deno.makeTempDir({ prefix: "gateway-flood-" });
const config = `${dir}/gateway.json`;
await Deno.writeTextFile(
  config,
  JSON.stringify({
    mcpServers: {
      hostile: { command: Deno.execPath(), args: script("hostile.ts"), timeout_s: 600 },
      other: { command: Deno.execPath(), args: script("fixture.ts") },
    },
  }),
);
const gateway = listServers().find((server) => server.name === "gateway")!;
const transport = new StdioClientTransport({
  command: Deno.execPath(),
  args: runArgs(gateway),
  env: { ...Deno.env.toObject(), MCP_GATEWAY_CONFIG: config },
  stderr: "ignore",
});
const client = new Client({ name: "flood-bench", version: "0.0.0" });
await client.connect(transport);
const call = async (
  name: string,
  args: Record<string, unknown> = {},
  onprogress?: (update: { progress: number }) => void,
) =>
  await client.callTool(
    { name: "gateway_call", arguments: { name, arguments: args } },
    undefined,
    { timeout: 600_000, ...(onprogress ? { onprogress } : {}) },
  ) as CallToolResult;

const peakRss = async () => {
  const status = await Deno.readTextFile(`/proc/${transport.pid}/status`).catch(() => "");
  return Number(status.match(/VmHWM:\s+(\d+)/)?.[1] ?? 0) / 1024;
};
await call("other__pid");
const before = await peakRss();
let received = 0;
let last = 0;
const started = performance.now();
let flooding = true;
const flood = call("hostile__flood", { count: COUNT }, (update) => {
  received++;
  last = update.progress;
}).finally(() => flooding = false);
const latencies: number[] = [];
while (flooding) {
  const t = performance.now();
  await call("other__pid");
  latencies.push(performance.now() - t);
}
const result = await flood;
const floodMs = performance.now() - started;
latencies.sort((a, b) => a - b);
const p50 = latencies[Math.floor(latencies.length / 2)] ?? 0;
console.log(JSON.stringify({
  notifications: COUNT,
  result: result.content[0]?.type === "text" ? result.content[0].text : "?",
  received,
  lastProgress: last,
  floodMs: Math.round(floodMs),
  peakRssMb: { before: Math.round(before), after: Math.round(await peakRss()) },
  otherCallMs: { calls: latencies.length, p50: Math.round(p50), max: Math.round(latencies.at(-1) ?? 0) },
}));
await client.close();
await Deno.remove(dir, { recursive: true });
