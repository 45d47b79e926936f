/**
 * Cold start of every server as a client sees it: spawn → initialize → tools/list, then stdin closed and
 * the exit awaited. Runs are interleaved with a bare `deno run` of an empty module (bare, server, bare,
 * next server...) so machine drift hits both alike; each ratio is a median against the baseline's median.
 * The client is raw JSON lines, not the SDK, so the numbers hold the server's cost only.
 * Where the time goes: the same rounds time `deno run` of a module that only imports one layer of a server
 * (the stdio quick path, zod, the SDK's server and client halves, each server's own modules), so each layer's
 * cost is its row minus the bare start.
 * `deno task bench startup [runs]`; `STARTUP_RUNS` overrides the default of 10.
 * @module
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { listServers, REPO_ROOT, runArgs, type ServerEntry } from "../tools/catalog.ts";
import { os } from "../lib/platform/mod.ts";

const RUNS = Number(Deno.env.get("STARTUP_RUNS") ?? 10);
/** The target: a cold start within this many bare `deno run`s. */
const TARGET_RATIO = 3;

const servers = listServers();
const scratch = await Deno.makeTempDir({ prefix: "startup-bench-" });
const empty = join(scratch, "empty.ts");
await Deno.writeTextFile(empty, "");
/** One module per layer, importing only it: label → module path. */
const LAYERS: [string, string][] = [
  ["lib/mcp/serve.ts: all a stdio entry loads before it answers", "lib/mcp/serve.ts"],
  ["zod", "zod"],
  ["lib/mcp/server_binding.ts: the SDK's server half", "lib/mcp/server_binding.ts"],
  ["lib/mcp/sdk_client.ts: the SDK's client half (gateway)", "lib/mcp/sdk_client.ts"],
  ...servers.map((
    server,
  ): [string, string] => [
    `mcp/${server.name}/boot.ts: ${server.name}'s modules`,
    `mcp/${server.name}/boot.ts`,
  ]),
];
const layerModules = await Promise.all(LAYERS.map(async ([, module], i) => {
  const path = join(scratch, `layer_${i}.ts`);
  const specifier = module.includes("/") ? pathToFileURL(join(REPO_ROOT, module)).href : module;
  await Deno.writeTextFile(path, `import ${JSON.stringify(specifier)};\n`);
  return path;
}));
const bare: number[] = [];
const startup = new Map<string, number[]>(servers.map((server) => [server.name, []]));
const layers: number[][] = LAYERS.map(() => []);
try {
  for (let run = 0; run < RUNS; run++) {
    bare.push(await bareStart());
    for (const server of servers) {
      startup.get(server.name)!.push(await coldStart(server));
      bare.push(await bareStart());
    }
    for (const [i, module] of layerModules.entries()) layers[i].push(await moduleStart(module));
    bare.push(await bareStart());
  }
} finally {
  await Deno.remove(scratch, { recursive: true });
}

const baseline = median(bare);
const out = [
  `## Cold start (${RUNS} interleaved runs, ${os}/${Deno.build.arch}, deno ${Deno.version.deno})`,
  "",
  "| what | median ms | min ms | max ms | × bare |",
  "| --- | --- | --- | --- | --- |",
  row("bare `deno run` of an empty module (baseline)", bare),
  ...servers.map((server) =>
    row(`${server.name}-mcp: spawn → initialize → tools/list`, startup.get(server.name)!)
  ),
  "",
  "Where the time goes: `deno run` of a module importing one layer (row minus bare = the layer's cost)",
  "",
  "| layer | median ms | min ms | max ms | × bare |",
  "| --- | --- | --- | --- | --- |",
  ...LAYERS.map(([label], i) => row(label, layers[i])),
  "",
  `target: ≤ ${TARGET_RATIO}× the bare deno startup; ${
    servers.filter((server) => median(startup.get(server.name)!) / baseline > TARGET_RATIO)
      .map((server) => server.name).join(", ") || "none"
  } above it`,
  "gateway-mcp takes no quick handshake: it answers initialize once its downstream servers are up, so its " +
  "instructions can name them, and it talks to them through the SDK (its client and server halves, above).",
];
Deno.stdout.writeSync(new TextEncoder().encode(out.join("\n") + "\n"));

async function bareStart(): Promise<number> {
  const started = performance.now();
  await new Deno.Command(Deno.execPath(), { args: ["run", "--no-prompt", "--quiet", empty], stdout: "null" })
    .output();
  return performance.now() - started;
}

/** Milliseconds of `deno run` of `module`, with the repository's config (its import map and lock). */
async function moduleStart(module: string): Promise<number> {
  const started = performance.now();
  const { success } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "--quiet", "-A", "--config", join(REPO_ROOT, "deno.json"), module],
    stdin: "null",
    stdout: "null",
  }).output();
  if (!success) throw new Error(`deno run ${module} failed`);
  return performance.now() - started;
}

/** Milliseconds from spawn to the tools/list answer; throws when the server fails or does not exit. */
async function coldStart(server: ServerEntry): Promise<number> {
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: runArgs(server),
    cwd: REPO_ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  const send = (message: object) => writer.write(new TextEncoder().encode(JSON.stringify(message) + "\n"));
  await send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } },
  });
  let elapsed: number | undefined;
  let pending = "";
  for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
    pending += chunk;
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      const { id, error } = JSON.parse(line);
      if (error) throw new Error(`${server.name}-mcp: ${JSON.stringify(error)}`);
      if (id === 1) {
        await send({ jsonrpc: "2.0", method: "notifications/initialized" });
        await send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
      } else if (id === 2) {
        elapsed = performance.now() - started;
        await writer.close();
      }
    }
  }
  const status = await child.status;
  if (elapsed === undefined) {
    throw new Error(`${server.name}-mcp exited (code ${status.code}) before tools/list`);
  }
  return elapsed;
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

function row(label: string, values: number[]): string {
  const cells = [median(values), Math.min(...values), Math.max(...values)].map((ms) => ms.toFixed(0));
  return `| ${label} | ${cells.join(" | ")} | ${(median(values) / baseline).toFixed(1)}× |`;
}
