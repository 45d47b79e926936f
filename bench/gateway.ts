/**
 * gateway-mcp: (1) o200k tokens at rest of the gateway's tools/list against the sum of the tools/lists of
 * what sits behind it (this project's servers, plus Desktop Commander and the reference filesystem and
 * memory servers when already installed under bench/.peers — never installed here); (2) the time a
 * `hello_ping` call gains by going through the gateway, in process and over stdio, p50/p95 of interleaved
 * rounds against the direct call measured in the same run. Search latency and quality: bench/gateway_rank.ts.
 * Run: `deno run -A bench/gateway.ts [calls=200] [--no-peers]`.
 * @module
 */
import { join } from "node:path";
import { Client, StdioClientTransport } from "../lib/mcp/sdk_client.ts";
import type { McpServerHandle } from "../lib/mcp/server.ts";
import { os } from "../lib/platform/mod.ts";
import { bootBuiltin } from "../mcp/gateway/builtins.ts";
import { Downstreams } from "../mcp/gateway/downstream.ts";
import { createFinder } from "../mcp/gateway/finder.ts";
import { createServer as createGateway } from "../mcp/gateway/server.ts";
import type { ServerConfig } from "../mcp/gateway/types.ts";
import { connect, type Connection } from "../tests/_support/connect.ts";
import { listServers, runArgs } from "../tools/catalog.ts";
import { listTokens } from "../tools/tokens.ts";
import { encode } from "gpt-tokenizer";
import { peerInstalled, type PeerKind, startPeer } from "./_support/peers.ts";

const CALLS = Number(Deno.args.find((arg) => !arg.startsWith("--")) ?? 200);
const PEERS = !Deno.args.includes("--no-peers");
const WARM_UP = 20;
const PEER_KINDS: PeerKind[] = ["desktop-commander", "filesystem", "memory"];

type Call = () => Promise<unknown>;
interface Variant {
  label: string;
  call: Call;
  /** Index of the variant this one is compared with; undefined for a baseline. */
  baseline?: number;
}

const servers = listServers();
const project = servers.filter((server) => server.name !== "gateway");
const workspace = await Deno.makeTempDir({ prefix: "gateway-bench-" });
// Builtins read their workspace from the environment, as they do inside a real gateway.
Deno.env.set("MCP_WORKSPACE", workspace);
const quiet = { info() {}, error() {} };

/** The gateway over `configs`, in this process, behind a real in-memory client. */
async function inProcessGateway(configs: ServerConfig[]): Promise<Connection> {
  const downstreams = new Downstreams(configs, { log: quiet });
  await downstreams.start();
  return connect(createGateway({
    backend: {
      catalog: () => downstreams.catalog(),
      status: () => downstreams.status(),
      call: (name, args, { signal }) => downstreams.call(name, args, { signal }),
    },
    finder: createFinder(),
    cleanup: () => downstreams.close(),
  }));
}

function builtin(name: string): ServerConfig {
  return {
    name,
    prefix: name,
    enabled: true,
    connectTimeoutMs: 30_000,
    callTimeoutMs: 30_000,
    tools: { allow: [], deny: [] },
    descriptions: {},
    transport: { kind: "builtin", server: name },
  };
}

/** A real SDK client over stdio to `deno run <args>`. */
async function stdioClient(args: string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args,
    cwd: workspace,
    env: Deno.env.toObject(),
    stderr: "ignore",
  });
  const client = new Client({ name: "bench", version: "0.0.0" });
  await client.connect(transport);
  return client;
}

/** gateway-mcp over stdio with `mcpServers` as its config file. */
async function stdioGateway(mcpServers: Record<string, unknown>): Promise<Client> {
  const config = join(workspace, `gateway-${Object.keys(mcpServers).join("-")}-${crypto.randomUUID()}.json`);
  await Deno.writeTextFile(config, JSON.stringify({ mcpServers }));
  return await stdioClient([...runArgs(serverEntry("gateway")), "--config", config]);
}

function serverEntry(name: string) {
  const entry = servers.find((server) => server.name === name);
  if (!entry) throw new Error(`No server "${name}" under mcp/`);
  return entry;
}

/** A call that fails the bench when the tool answers with an error: an error path is not the one measured. */
function pinger(client: Client, viaGateway: boolean): Call {
  const request = viaGateway
    ? { name: "gateway_call_read", arguments: { name: "hello__hello_ping", arguments: {} } }
    : { name: "hello_ping", arguments: {} };
  return async () => {
    const result = await client.callTool(request);
    if (result.isError) throw new Error(`${request.name} failed: ${JSON.stringify(result.content)}`);
  };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

/** CALLS rounds after a warm-up; each round calls every variant once, in an order that alternates. */
async function timeInterleaved(variants: Variant[]): Promise<number[][]> {
  for (let i = 0; i < WARM_UP; i++) for (const variant of variants) await variant.call();
  const times = variants.map(() => [] as number[]);
  for (let round = 0; round < CALLS; round++) {
    const order = variants.map((_, index) => index);
    if (round % 2) order.reverse();
    for (const index of order) {
      const started = performance.now();
      await variants[index].call();
      times[index].push(performance.now() - started);
    }
  }
  return times;
}

async function listedTokens(client: Client): Promise<{ tools: number; tokens: number }> {
  const { tools } = await client.listTools();
  return { tools: tools.length, tokens: listTokens(tools) };
}

// (1) Tokens at rest.
const rest: [label: string, tools: number, tokens: number][] = [];
for (const server of project) {
  const handle: McpServerHandle = await bootBuiltin(server.name);
  await using c = await connect(handle);
  const { tools, tokens } = await listedTokens(c.client);
  rest.push([`${server.name}-mcp`, tools, tokens]);
}
const skipped: string[] = [];
for (const kind of PEER_KINDS) {
  if (!PEERS || !peerInstalled(kind)) {
    skipped.push(kind);
    continue;
  }
  const peer = await startPeer(kind, { workspace });
  const { tools, tokens } = await listedTokens(peer.client);
  rest.push([`${kind} (peer, npm)`, tools, tokens]);
  await peer.close();
}
const behind = rest.reduce((sum, [, , tokens]) => sum + tokens, 0);
const behindTools = rest.reduce((sum, [, tools]) => sum + tools, 0);
let gatewayRest: { tools: number; tokens: number };
let instructionTokens: number;
{
  await using g = await inProcessGateway(project.map((server) => builtin(server.name)));
  gatewayRest = await listedTokens(g.client);
  instructionTokens = encode(g.client.getInstructions() ?? "").length;
}

// (2) Call overhead.
const hello = serverEntry("hello");
await using direct = await connect(await bootBuiltin("hello"));
await using viaGateway = await inProcessGateway([builtin("hello")]);
const inProcessVariants: Variant[] = [
  { label: "in process: client → hello (baseline)", call: pinger(direct.client, false) },
  {
    label: "in process: client → gateway → builtin hello",
    call: pinger(viaGateway.client, true),
    baseline: 0,
  },
];
const inProcess = await timeInterleaved(inProcessVariants);
const helloStdio = await stdioClient(runArgs(hello));
const gatewayBuiltin = await stdioGateway({ hello: { builtin: "hello" } });
const gatewaySpawned = await stdioGateway({
  hello: { command: Deno.execPath(), args: runArgs(hello), cwd: workspace },
});
const stdioVariants: Variant[] = [
  { label: "stdio: client → hello-mcp (baseline)", call: pinger(helloStdio, false) },
  { label: "stdio: client → gateway-mcp → builtin hello", call: pinger(gatewayBuiltin, true), baseline: 0 },
  { label: "stdio: client → gateway-mcp → stdio hello-mcp", call: pinger(gatewaySpawned, true), baseline: 0 },
];
const overStdio = await timeInterleaved(stdioVariants);
for (const client of [helloStdio, gatewayBuiltin, gatewaySpawned]) await client.close();
await Deno.remove(workspace, { recursive: true });

const pct = (part: number, whole: number) => `${(100 * part / whole).toFixed(1)} %`;
const out = [
  `## gateway-mcp: tokens at rest (o200k, tools/list; ${os}/${Deno.build.arch}, deno ${Deno.version.deno})`,
  "",
  "| what | tools | tokens |",
  "| --- | --- | --- |",
  ...rest.map(([label, tools, tokens]) => `| ${label} | ${tools} | ${tokens} |`),
  `| **sum of everything behind the gateway (baseline)** | ${behindTools} | ${behind} |`,
  `| **gateway-mcp tools/list** | ${gatewayRest.tools} | ${gatewayRest.tokens} |`,
  `| gateway-mcp instructions over this project's servers (initialize, once per session; ≤ 1,500 chars) | – | ${instructionTokens} |`,
  "",
  `ratio: the gateway's tools/list is ${pct(gatewayRest.tokens, behind)} of what sits behind it ` +
  `(${behind - gatewayRest.tokens} tokens saved per request); with its instructions ` +
  `${pct(gatewayRest.tokens + instructionTokens, behind)}`,
  "",
  skipped.length
    ? `peers skipped (${PEERS ? "not installed under bench/.peers" : "--no-peers"}): ${skipped.join(", ")}`
    : "peers: all installed and measured",
  "",
  `## gateway-mcp: call overhead (hello_ping, ${CALLS} interleaved rounds after ${WARM_UP} warm-up calls)`,
  "",
  "| path | p50 ms | p95 ms | added p50 ms | added p95 ms | ratio p50 | ≤ 1 ms added at p50 |",
  "| --- | --- | --- | --- | --- | --- | --- |",
  ...table(inProcessVariants, inProcess),
  ...table(stdioVariants, overStdio),
];
Deno.stdout.writeSync(new TextEncoder().encode(out.join("\n") + "\n"));

function table(variants: Variant[], times: number[][]): string[] {
  return variants.map((variant, index) => {
    const p50 = percentile(times[index], 0.5);
    const p95 = percentile(times[index], 0.95);
    if (variant.baseline === undefined) {
      return `| ${variant.label} | ${p50.toFixed(3)} | ${p95.toFixed(3)} | – | – | 1.00× | – |`;
    }
    const base = times[variant.baseline];
    const b50 = percentile(base, 0.5);
    const b95 = percentile(base, 0.95);
    return `| ${variant.label} | ${p50.toFixed(3)} | ${p95.toFixed(3)} | ${(p50 - b50).toFixed(3)} | ${
      (p95 - b95).toFixed(3)
    } | ${(p50 / b50).toFixed(2)}× | ${p50 - b50 <= 1 ? "met" : "missed"} |`;
  });
}
