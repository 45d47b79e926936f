import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import { connect, textOf } from "../../_support/connect.ts";
import { ListRootsRequestSchema } from "../../../lib/mcp/sdk.ts";
import { Client, InMemoryTransport } from "../../../lib/mcp/sdk_client.ts";
import { spawnStdio } from "../../_support/stdio.ts";
import { assertSnapshot } from "../../_support/snapshot.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { pollUntil } from "../../_support/poll.ts";
import { isWindows } from "../../../lib/platform/mod.ts";
import { createServer } from "../../../mcp/hello/server.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { loadServerSdk } from "../../../lib/mcp/server.ts";

function helloServer(cwd = Deno.cwd(), workspaceEnv?: string) {
  return createServer({ workspace: new Workspace({ cwd, workspaceEnv }) });
}

Deno.test("hello_ping answers pong", async () => {
  await using c = await connect(helloServer());
  const result = await c.call("hello_ping");
  assert.equal(result.isError, undefined);
  assert.equal(textOf(result), "pong");
  assert.equal(result.structuredContent, undefined);
});

Deno.test("hello_echo returns the text unchanged, unicode included", async () => {
  await using c = await connect(helloServer());
  assert.equal(await c.text("hello_echo", { text: "héllo “world” 🦕\n" }), "héllo “world” 🦕\n");
});

Deno.test("hello_echo without text is an invalid_argument error that reads as an error", async () => {
  await using c = await connect(helloServer());
  const result = await c.call("hello_echo", {});
  assert.equal(result.isError, true);
  assert.match(
    textOf(result),
    /^Error \[invalid_argument\]: Cannot call hello_echo: "text": missing \(expected string\)/,
  );
  assert.deepEqual(result._meta, { code: "invalid_argument" });
});

Deno.test("an unknown tool is a not_found error naming the tools that exist", async () => {
  await using c = await connect(helloServer());
  const result = await c.call("hello_nope");
  assert.equal(result.isError, true);
  assert.match(
    textOf(result),
    /^Error \[not_found\]: Cannot call "hello_nope": no such tool; this server has hello_ping/,
  );
});

Deno.test("hello_whoami reports structured identity and the cwd root", async () => {
  await using ws = await tempWorkspace();
  await using c = await connect(helloServer(ws.path));
  const result = await c.call("hello_whoami");
  const data = result.structuredContent as Record<string, unknown>;
  assert.equal(data.server, "hello-mcp");
  assert.equal(data.roots_source, "cwd");
  assert.deepEqual(data.roots, [ws.path]);
  assert.equal(data.pid, Deno.pid);
  assert.deepEqual(JSON.parse(textOf(result)), data);
});

Deno.test("hello_whoami adopts the client's MCP roots", async () => {
  await using ws = await tempWorkspace({ "a/": "", "b/": "" });
  await using c = await connect(helloServer(Deno.cwd()), {
    roots: [pathToFileURL(ws.join("a")).href, pathToFileURL(ws.join("b")).href],
  });
  const data = (await c.call("hello_whoami")).structuredContent as Record<string, unknown>;
  assert.equal(data.roots_source, "roots");
  assert.deepEqual(data.roots, [ws.join("a"), ws.join("b")]);
});

Deno.test("MCP_WORKSPACE wins over the client's roots", async () => {
  await using ws = await tempWorkspace({ "env/": "", "client/": "" });
  await using c = await connect(helloServer(Deno.cwd(), ws.join("env")), {
    roots: [pathToFileURL(ws.join("client")).href],
  });
  const data = (await c.call("hello_whoami")).structuredContent as Record<string, unknown>;
  assert.equal(data.roots_source, "env");
  assert.deepEqual(data.roots, [ws.join("env")]);
});

Deno.test("tools/list matches the snapshot", async () => {
  await using c = await connect(helloServer());
  const { tools } = await c.client.listTools();
  await assertSnapshot(new URL("../../../mcp/hello/tools.json", import.meta.url), tools);
});

Deno.test("stdio: a real client initializes, lists and calls over pipes", async () => {
  await using ws = await tempWorkspace();
  await using c = await spawnStdio("hello", { cwd: ws.path });
  const { tools } = await c.client.listTools();
  assert.deepEqual(tools.map((t) => t.name), ["hello_ping", "hello_echo", "hello_whoami"]);
  const whoami = await c.client.callTool({ name: "hello_whoami", arguments: {} });
  assert.deepEqual((whoami.structuredContent as { roots: string[] }).roots, [ws.path]);
});

Deno.test("stdio: the server exits with code 0 when its stdin closes, instead of lingering", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "--allow-read", "--allow-env", "mcp/hello/main.ts"],
    stdin: "piped",
    stdout: "null",
    stderr: "null",
  }).spawn();
  await child.stdin.close();
  const deadline = new Promise<"timeout">((resolve) => {
    const timer = setTimeout(() => resolve("timeout"), 5_000);
    child.status.finally(() => clearTimeout(timer));
  });
  const outcome = await Promise.race([child.status, deadline]);
  if (outcome === "timeout") child.kill("SIGKILL");
  assert.notEqual(outcome, "timeout", "server still running 5 s after stdin closed");
  assert.equal((outcome as Deno.CommandStatus).code, 0);
});

Deno.test({
  name: "stdio: SIGTERM makes the server exit cleanly (code 0)",
  ignore: isWindows,
  fn: async () => {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", "--allow-read", "--allow-env", "mcp/hello/main.ts"],
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }) + "\n",
    ));
    // Wait for the answer so the signal lands on a running server, not on one still starting.
    const reader = child.stdout.getReader();
    const { value } = await reader.read();
    assert.match(new TextDecoder().decode(value), /"serverInfo"/);
    child.kill("SIGTERM");
    const status = await child.status;
    assert.equal(status.code, 0);
    reader.releaseLock();
    await child.stdout.cancel();
    await writer.close().catch(() => {});
  },
});

Deno.test("roots/list_changed makes the server read the client's roots again", async () => {
  await using ws = await tempWorkspace({ "first/": "", "second/": "" });
  let roots = [pathToFileURL(ws.join("first")).href];
  const handle = helloServer(Deno.cwd());
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "t", version: "0" }, { capabilities: { roots: { listChanged: true } } });
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: roots.map((uri) => ({ uri })) }));
  await loadServerSdk();
  await handle.server.connect(serverTransport);
  await client.connect(clientTransport);
  try {
    const whoami = async () =>
      ((await client.callTool({ name: "hello_whoami", arguments: {} })).structuredContent as {
        roots: string[];
      })
        .roots;
    assert.deepEqual(await whoami(), [ws.join("first")]);
    roots = [pathToFileURL(ws.join("second")).href];
    await client.sendRootsListChanged();
    await pollUntil(async () => (await whoami())[0] === ws.join("second"), 5_000);
    assert.deepEqual(await whoami(), [ws.join("second")]);
  } finally {
    await client.close();
    await handle.close();
  }
});
