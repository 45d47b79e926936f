import assert from "node:assert/strict";
import { join } from "node:path";
import { connect, textOf } from "../../_support/connect.ts";
import { assertSnapshot } from "../../_support/snapshot.ts";
import { spawnStdio } from "../../_support/stdio.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { Downstreams } from "../../../mcp/gateway/downstream.ts";
import { createFinder } from "../../../mcp/gateway/finder.ts";
import { createServer } from "../../../mcp/gateway/server.ts";
import { listTokens } from "../../../tools/tokens.ts";
import { listServers, runArgs } from "../../../tools/catalog.ts";
import { createServer as createHello } from "../../../mcp/hello/server.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { builtinServer } from "./_config.ts";
import type { ServerConfig } from "../../../mcp/gateway/types.ts";

/** The gateway over real downstream servers hosted in process, connected to a real in-memory client. */
async function gateway(configs: ServerConfig[], resultBudgetChars?: number) {
  const downstreams = new Downstreams(configs, { log: { info() {}, error() {} } });
  await downstreams.start();
  return connect(createServer({
    backend: {
      catalog: () => downstreams.catalog(),
      status: () => downstreams.status(),
      call: (name, args, options) => downstreams.call(name, args, options),
    },
    finder: createFinder(),
    resultBudgetChars,
    cleanup: () => downstreams.close(),
  }));
}

const HOSTED =
  () => [builtinServer("hello", "hello"), builtinServer("fs", "fs"), builtinServer("edit", "edit")];

Deno.test("tools/list: four tools, ≤ 500 tokens at rest whatever sits behind, matching the snapshot", async () => {
  await using c = await gateway(HOSTED());
  const { tools } = await c.client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name), [
    "gateway_search",
    "gateway_describe",
    "gateway_call",
    "gateway_call_read",
  ]);
  const tokens = listTokens(tools);
  assert.ok(tokens <= 500, `the gateway's tools/list costs ${tokens} tokens`);
  assert.equal(tools.find((tool) => tool.name === "gateway_call_read")?.annotations?.readOnlyHint, true);
  assert.equal(tools.find((tool) => tool.name === "gateway_call")?.annotations?.readOnlyHint, false);
  await assertSnapshot(new URL("../../../mcp/gateway/tools.json", import.meta.url), tools);
});

Deno.test("instructions name the connected servers and what each is for", async () => {
  await using c = await gateway(HOSTED());
  const instructions = c.client.getInstructions() ?? "";
  assert.ok(instructions.length <= 1_500);
  assert.match(instructions, /gateway_search/);
  for (const name of ["hello", "fs", "edit"]) assert.match(instructions, new RegExp(`- ${name} — \\S`));
});

Deno.test("gateway_search ranks the downstream tools and marks read-only ones", async () => {
  await using c = await gateway(HOSTED());
  const text = await c.text("gateway_search", { query: "read a file with line numbers", limit: 3 });
  const lines = text.split("\n");
  assert.ok(lines.length <= 3);
  assert.match(lines[0], /^fs__fs_read — .+ \(read-only\)$/);
  const edits = await c.text("gateway_search", { query: "replace text in a file", server: "edit" });
  assert.match(edits.split("\n")[0], /^edit__edit_file — /);
  assert.doesNotMatch(edits, /fs__/);
});

Deno.test("select: returns exactly the named tools; an unknown name gets did-you-mean", async () => {
  await using c = await gateway(HOSTED());
  const text = await c.text("gateway_search", { query: "select:hello__hello_ping, fs__fs_stat" });
  assert.deepEqual(text.split("\n").map((line) => line.split(" — ")[0]), [
    "hello__hello_ping",
    "fs__fs_stat",
  ]);
  const wrong = await c.call("gateway_search", { query: "select:hello__hello_pong" });
  assert.equal(wrong.isError, true);
  assert.match(textOf(wrong), /^Error \[not_found\]: .*did you mean "hello__hello_ping"/);
});

Deno.test("gateway_describe gives the full schemas and annotations of each named tool", async () => {
  await using c = await gateway(HOSTED());
  const [echo, stat] = (await c.text("gateway_describe", { names: ["hello__hello_echo", "fs__fs_stat"] }))
    .split("\n").map((line) => JSON.parse(line));
  assert.equal(echo.name, "hello__hello_echo");
  assert.deepEqual(echo.input.required, ["text"]);
  assert.equal(echo.annotations.readOnlyHint, true);
  assert.ok(stat.output, "fs_stat's output schema is shown");
});

Deno.test("gateway_call passes the downstream result through untouched (structured, errors, _meta)", async () => {
  await using c = await gateway(HOSTED());
  const direct = await connect(createHello({ workspace: new Workspace({ cwd: Deno.cwd() }) }));
  try {
    for (
      const [tool, args] of [["hello_echo", { text: "héllo 🦕" }], ["hello_whoami", {}], [
        "hello_echo",
        {},
      ]] as const
    ) {
      const through = await c.call("gateway_call", { name: `hello__${tool}`, arguments: args });
      const own = await direct.call(tool, args);
      if (tool === "hello_whoami") {
        assert.deepEqual(
          Object.keys(through.structuredContent ?? {}),
          Object.keys(own.structuredContent ?? {}),
        );
      } else {
        assert.deepEqual(through, own);
      }
    }
  } finally {
    await direct[Symbol.asyncDispose]();
  }
});

Deno.test("gateway_call_read refuses a tool not annotated read-only and runs one that is", async () => {
  await using c = await gateway(HOSTED());
  const refused = await c.call("gateway_call_read", {
    name: "edit__edit_write",
    arguments: { path: "never.txt", content: "x" },
  });
  assert.equal(refused.isError, true);
  assert.match(textOf(refused), /^Error \[permission_denied\]: .*not annotated read-only; use gateway_call/);
  const stat = await c.call("gateway_call_read", { name: "fs__fs_stat", arguments: { path: "deno.json" } });
  assert.equal((stat.structuredContent as { type: string }).type, "file");
});

Deno.test("a result over the budget is cut with a note", async () => {
  await using c = await gateway([builtinServer("hello", "hello")], 2_000);
  const result = await c.call("gateway_call", {
    name: "hello__hello_echo",
    arguments: { text: "x".repeat(50_000) },
  });
  const text = textOf(result);
  assert.ok(text.length <= 2_000, `${text.length} characters`);
  assert.match(text, /cut/);
});

Deno.test("stdio: gateway-mcp with a config file finds and calls a builtin and a spawned server", async () => {
  const hello = listServers().find((server) => server.name === "hello")!;
  await using workspace = await tempWorkspace({
    "gateway.config.jsonc": JSON.stringify({
      mcpServers: {
        "in-process": { builtin: "hello" },
        spawned: { command: Deno.execPath(), args: runArgs(hello) },
      },
    }),
  });
  await using gw = await spawnStdio("gateway", {
    cwd: workspace.path,
    env: { MCP_GATEWAY_CONFIG: join(workspace.path, "gateway.config.jsonc") },
  });
  const search = await gw.client.callTool({ name: "gateway_search", arguments: { query: "ping", limit: 5 } });
  const lines = textOf(search as never);
  assert.match(lines, /in-process__hello_ping/);
  assert.match(lines, /spawned__hello_ping/);
  for (const name of ["in-process__hello_ping", "spawned__hello_ping"]) {
    const result = await gw.client.callTool({
      name: "gateway_call_read",
      arguments: { name, arguments: {} },
    });
    assert.equal(textOf(result as never), "pong");
  }
});

Deno.test("stdio: a bad config stops gateway-mcp with a message naming the file, entry and key", async () => {
  await using workspace = await tempWorkspace({
    "gw.json": JSON.stringify({ mcpServers: { db: { command: "x", timeout: 5 } } }),
  });
  const gateway = listServers().find((server) => server.name === "gateway")!;
  const output = await new Deno.Command(Deno.execPath(), {
    args: [...runArgs(gateway), "--config", join(workspace.path, "gw.json")],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(output.code, 1);
  assert.match(
    new TextDecoder().decode(output.stderr),
    /gw\.json: mcpServers\.db\.timeout: unknown key \(did you mean "timeout_s"\?\)/,
  );
});
