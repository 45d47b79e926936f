import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Downstreams } from "../../../mcp/gateway/downstream.ts";
import type { ServerConfig } from "../../../mcp/gateway/types.ts";
import { ToolError } from "../../../lib/mcp/errors.ts";
import type { CallToolResult } from "../../../lib/mcp/sdk.ts";
import { os } from "../../../lib/platform/mod.ts";
import { listProcesses } from "../../../lib/process/processes.ts";
import { REPO_ROOT } from "../../../tools/catalog.ts";
import { connect, textOf } from "../../_support/connect.ts";
import { waitFor } from "../../_support/poll.ts";
import { builtinServer, projectServer, scriptServer } from "./_config.ts";

const posixOnly = { ignore: os === "windows" };

function open(configs: ServerConfig[], now?: () => number): Downstreams & { logs: string[] } {
  const logs: string[] = [];
  const log = { info: (line: string) => logs.push(line), error: (line: string) => logs.push(line) };
  return Object.assign(new Downstreams(configs, { log, ...(now ? { now } : {}) }), { logs });
}

async function alive(pid: number): Promise<boolean> {
  const rows = await listProcesses();
  return rows?.some((row) => row.pid === pid && !row.zombie) ?? false;
}

async function rejectsWith(promise: Promise<unknown>, code: string): Promise<ToolError> {
  const error = await promise.then(() => undefined, (error) => error);
  assert.ok(error instanceof ToolError, `expected a ToolError, got ${error}`);
  assert.equal(error.code, code, error.message);
  return error;
}

Deno.test("downstream: a server that never answers initialize times out with the exact reason", async () => {
  await using downstreams = open([
    scriptServer("mute", "silent.ts", { connectTimeoutMs: 300 }),
    scriptServer("fixture", "fixture.ts"),
  ]);
  await downstreams.start();
  const [mute, fixture] = downstreams.status();
  assert.equal(mute.state, "down");
  assert.equal(mute.reason, 'MCP server "mute" timed out after 300ms');
  assert.equal(fixture.state, "up");
  assert.equal(fixture.instructions, "Failure modes for tests");
  if (os !== "windows") {
    await waitFor("the timed-out child to be closed", async () => {
      const rows = await listProcesses({ commands: true });
      return !rows?.some((row) => !row.zombie && row.command?.includes("_servers/silent.ts"));
    });
  }
  assert.ok(downstreams.catalog().some((tool) => tool.qualifiedName === "fixture__pid"));
});

Deno.test("downstream: a command that cannot start is down with the spawn error; retryDown tries again", async () => {
  const ghost = scriptServer("ghost", "fixture.ts");
  await using downstreams = open([{
    ...ghost,
    transport: { kind: "stdio", command: "/no/such/binary", args: [], env: {} },
  }]);
  await downstreams.start();
  const [status] = downstreams.status();
  assert.equal(status.state, "down");
  assert.match(
    status.reason ?? "",
    /^Cannot connect to MCP server "ghost": Failed to spawn .*; check its command and cwd$/,
  );
  await downstreams.retryDown();
  assert.equal(downstreams.status()[0].state, "down");
  assert.ok(downstreams.logs.filter((line) => line.includes("/no/such/binary")).length === 2, "tried twice");
});

Deno.test(
  "downstream: a server that exits mid-call fails that call, the next call restarts it",
  posixOnly,
  async () => {
    await using downstreams = open([scriptServer("fixture", "fixture.ts")]);
    await downstreams.start();
    const first = Number(textOf(await downstreams.call("fixture__pid", {})));
    await rejectsWith(downstreams.call("fixture__crash", {}), "unavailable");
    await waitFor("the crash to be noticed", () => downstreams.status()[0].state === "down");
    assert.ok(downstreams.catalog().some((tool) => tool.qualifiedName === "fixture__pid"), "catalog kept");
    const second = Number(textOf(await downstreams.call("fixture__pid", {})));
    assert.notEqual(second, first);
    assert.equal(downstreams.status()[0].state, "up");
    await waitFor("the crashed child to be gone", async () => !await alive(first));
  },
);

Deno.test("downstream: repeated failed restarts back off, then the breaker refuses quickly", async () => {
  await using dir = await tempDir();
  let clock = 0;
  await using downstreams = open(
    [scriptServer("once", "fixture.ts", { env: { FIXTURE_ONCE: join(dir.path, "started") } })],
    () => clock,
  );
  await downstreams.start();
  await rejectsWith(downstreams.call("once__crash", {}), "unavailable");
  await waitFor("the crash to be noticed", () => downstreams.status()[0].state === "down");
  // Failure 1 retries at once; the restart fails (failure 2), so the next try waits 1 s.
  await rejectsWith(downstreams.call("once__pid", {}), "unavailable");
  const refused = await rejectsWith(downstreams.call("once__pid", {}), "unavailable");
  assert.match(refused.message, /retry in 1s$/);
  for (const waitMs of [1_000, 2_000, 4_000]) {
    clock += waitMs;
    await rejectsWith(downstreams.call("once__pid", {}), "unavailable");
  }
  const [status] = downstreams.status();
  assert.equal(status.state, "down");
  assert.match(status.reason ?? "", /5 failures in a row/);
  const breaker = await rejectsWith(downstreams.call("once__pid", {}), "unavailable");
  assert.match(breaker.message, /retry in 60s$/);
});

Deno.test("downstream: tools/list_changed re-lists the tools and fires onCatalogChanged", async () => {
  await using downstreams = open([scriptServer("fixture", "fixture.ts")]);
  await downstreams.start();
  let changes = 0;
  downstreams.onCatalogChanged(() => changes++);
  assert.ok(!downstreams.catalog().some((tool) => tool.name === "extra"));
  await downstreams.call("fixture__grow", {});
  await waitFor(
    "the new tool",
    () => downstreams.catalog().some((tool) => tool.qualifiedName === "fixture__extra"),
  );
  assert.ok(changes >= 1);
  assert.equal(textOf(await downstreams.call("fixture__extra", {})), "extra");
});

Deno.test("downstream: two entries with one endpoint share one process", async () => {
  const env = { A: "1", B: "2" };
  await using downstreams = open([
    scriptServer("one", "fixture.ts", { env }),
    scriptServer("two", "fixture.ts", { env: { B: "2", A: "1" } }),
    scriptServer("three", "fixture.ts", { env: { A: "other" } }),
  ]);
  await downstreams.start();
  assert.equal(downstreams.pidOf("one"), downstreams.pidOf("two"));
  assert.notEqual(downstreams.pidOf("one"), downstreams.pidOf("three"));
  assert.equal(textOf(await downstreams.call("two__pid", {})), String(downstreams.pidOf("one")));
  const status = downstreams.status();
  assert.deepEqual(status.map((entry) => entry.sharedWith), [["two"], ["one"], undefined]);
  assert.deepEqual(status.map((entry) => entry.tools), [5, 5, 5]);
  assert.ok(downstreams.logs.some((line) => line.includes('"two" shares the connection of "one"')));
});

Deno.test("downstream: a call past its timeout is cancelled downstream; the error names server, tool, limit", async () => {
  await using downstreams = open([scriptServer("fixture", "fixture.ts", { callTimeoutMs: 300 })]);
  await downstreams.start();
  const error = await rejectsWith(downstreams.call("fixture__wait", {}), "timeout");
  assert.match(error.message, /"wait"/);
  assert.match(error.message, /MCP server "fixture"/);
  assert.match(error.message, /300ms/);
  await waitFor(
    "the cancellation to reach the server",
    async () => textOf(await downstreams.call("fixture__cancellations", {})) === "1 waited, 1 cancelled",
  );
});

Deno.test("downstream: an aborted signal cancels the call downstream", async () => {
  await using downstreams = open([scriptServer("fixture", "fixture.ts")]);
  await downstreams.start();
  const controller = new AbortController();
  const call = downstreams.call("fixture__wait", {}, { signal: controller.signal });
  await waitFor(
    "the call to start",
    async () => textOf(await downstreams.call("fixture__cancellations", {})) === "1 waited, 0 cancelled",
  );
  controller.abort(new Error("client went away"));
  await assert.rejects(call, /client went away/);
  await waitFor(
    "the cancellation to reach the server",
    async () => textOf(await downstreams.call("fixture__cancellations", {})) === "1 waited, 1 cancelled",
  );
});

Deno.test("downstream: an unknown name is not_found", async () => {
  await using downstreams = open([]);
  await downstreams.start();
  const error = await rejectsWith(downstreams.call("nope__tool", {}), "not_found");
  assert.equal(
    error.message,
    'Cannot call "nope__tool": no such tool in the gateway catalog; find names with gateway_search',
  );
});

Deno.test("downstream: allow/deny globs and description overrides shape the catalog", async () => {
  await using downstreams = open([
    {
      ...builtinServer("hello", "hello"),
      tools: { allow: ["hello_*"], deny: ["*_whoami"] },
      descriptions: { hello_ping: "Check the gateway path" },
    },
    { ...builtinServer("off", "fs"), enabled: false },
  ]);
  await downstreams.start();
  const catalog = downstreams.catalog();
  assert.deepEqual(catalog.map((tool) => tool.qualifiedName), ["hello__hello_ping", "hello__hello_echo"]);
  assert.equal(catalog[0].description, "Check the gateway path");
  assert.equal(catalog[0].server, "hello");
  assert.deepEqual(downstreams.status().map((entry) => [entry.name, entry.state, entry.tools]), [
    ["hello", "up", 2],
    ["off", "disabled", 0],
  ]);
  await rejectsWith(downstreams.call("hello__hello_whoami", {}), "not_found");
});

Deno.test("downstream: hello and fs over stdio and in process answer exactly like direct calls", async () => {
  const { boot: bootHello } = await import("../../../mcp/hello/boot.ts");
  const { boot: bootFs } = await import("../../../mcp/fs/boot.ts");
  await using downstreams = open([
    projectServer("hello_stdio", "hello", REPO_ROOT),
    builtinServer("hello_local", "hello"),
    projectServer("fs_stdio", "fs", REPO_ROOT),
    builtinServer("fs_local", "fs"),
  ]);
  await downstreams.start();
  assert.deepEqual(downstreams.status().map((entry) => entry.state), ["up", "up", "up", "up"]);
  const calls: [string, string, Record<string, unknown>][] = [
    ["hello", "hello_echo", { text: "through the gateway" }],
    ["hello", "hello_echo", { wrong: 1 }],
    ["fs", "fs_read", { path: "deno.json", limit: 5 }],
    ["fs", "fs_stat", { path: "deno.json" }],
    ["fs", "fs_read", { path: "no/such/file.ts" }],
  ];
  await using hello = await connect(bootHello());
  await using fs = await connect(bootFs());
  for (const [server, tool, args] of calls) {
    const direct = await (server === "hello" ? hello : fs).call(tool, args);
    for (const via of ["stdio", "local"]) {
      const result: CallToolResult = await downstreams.call(`${server}_${via}__${tool}`, args);
      assert.deepEqual(result, direct, `${server}_${via}__${tool}`);
    }
  }
});

Deno.test("downstream: close() leaves no child alive", posixOnly, async () => {
  const downstreams = open([
    scriptServer("fixture", "fixture.ts"),
    scriptServer("mute", "silent.ts", { connectTimeoutMs: 300 }),
  ]);
  await downstreams.start();
  const pid = downstreams.pidOf("fixture");
  assert.ok(pid);
  assert.ok(await alive(pid));
  await downstreams.close();
  await waitFor("the child to exit", async () => !await alive(pid));
  await rejectsWith(downstreams.call("fixture__pid", {}), "unavailable");
});

Deno.test(
  "downstream: when the gateway is SIGKILLed its stdio children exit (stdin EOF)",
  posixOnly,
  async () => {
    const configs = [scriptServer("fixture", "fixture.ts"), projectServer("hello", "hello", REPO_ROOT)];
    const host = await startHost(configs);
    const pids = host.pids;
    assert.ok(pids.fixture && pids.hello, JSON.stringify(pids));
    assert.ok(await alive(pids.fixture) && await alive(pids.hello));
    await host.kill();
    await waitFor("the children to exit", async () => !await alive(pids.fixture) && !await alive(pids.hello));
  },
);

async function tempDir(): Promise<AsyncDisposable & { path: string }> {
  const path = await Deno.makeTempDir({ prefix: "gateway-downstream-" });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

Deno.test("downstream: a tool's own timeout (tool_timeouts_s) wins over the server's", async () => {
  await using downstreams = open([
    scriptServer("fixture", "fixture.ts", { callTimeoutMs: 60_000, toolTimeoutsMs: { wait: 250 } }),
  ]);
  await downstreams.start();
  const error = await rejectsWith(downstreams.call("fixture__wait", {}), "timeout");
  assert.match(error.message, /250ms/);
});

Deno.test({
  name:
    "downstream: a SIGKILLed gateway's watchdog kills a server that ignores stdin EOF, and its children (Linux)",
  ignore: os !== "linux",
  fn: async () => {
    const configs = [scriptServer("stubborn", "fixture.ts", { env: { FIXTURE_STUBBORN: "1" } })];
    const host = await startHost(configs);
    const server = host.pids.stubborn;
    const children = await childPids(server);
    assert.ok(children.length >= 1, "the stubborn server runs a sleep child");
    await host.kill();
    await waitFor("the stubborn server and its child to die", async () => {
      for (const pid of [server, ...children]) if (await alive(pid)) return false;
      return true;
    });
  },
});

/** A process standing in for the gateway (`_servers/gateway_host.ts`) with `configs` connected, and its SIGKILL. */
async function startHost(
  configs: ServerConfig[],
): Promise<{ pids: Record<string, number>; kill(): Promise<void> }> {
  const host = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      "--quiet",
      "-A",
      fileURLToPath(new URL("./_servers/gateway_host.ts", import.meta.url)),
    ],
    env: { HOST_CONFIG: JSON.stringify(configs) },
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = host.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let line = "";
  while (!line.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    line += value;
  }
  return {
    pids: JSON.parse(line),
    async kill() {
      host.kill("SIGKILL");
      await host.status;
      await reader.cancel();
    },
  };
}

/** The pids whose parent is `pid` (Linux /proc through ps). */
async function childPids(pid: number): Promise<number[]> {
  const out = await new Deno.Command("ps", { args: ["-o", "pid=", "--ppid", String(pid)], stdout: "piped" })
    .output();
  return new TextDecoder().decode(out.stdout).split(/\s+/).filter(Boolean).map(Number);
}
