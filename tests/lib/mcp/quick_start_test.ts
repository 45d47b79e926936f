import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import {
  LATEST_PROTOCOL_VERSION as SDK_LATEST,
  SUPPORTED_PROTOCOL_VERSIONS as SDK_SUPPORTED,
} from "../../../lib/mcp/sdk.ts";
import {
  answerHandshake,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "../../../lib/mcp/quick_start.ts";
import { boot } from "../../../mcp/hello/boot.ts";
import { manifestOfSpec } from "../../../lib/mcp/server.ts";
import { connect } from "../../_support/connect.ts";
import { spawnStdio } from "../../_support/stdio.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { Client, StdioClientTransport } from "../../../lib/mcp/sdk_client.ts";
import { ListRootsRequestSchema } from "../../../lib/mcp/sdk.ts";
import { listServers, runArgs } from "../../../tools/catalog.ts";

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
};

const INITIALIZED = { jsonrpc: "2.0", method: "notifications/initialized" };
const LIST = { jsonrpc: "2.0", id: 1, method: "tools/list" };

/** Runs the quick path over `lines`; returns what it answered and what it left for the SDK server. */
async function handshake(
  lines: object[],
): Promise<{ answers: { id: unknown }[]; left: string[]; closedIdle: boolean; wanted: boolean }> {
  const input = ReadableStream.from([
    new TextEncoder().encode(lines.map((l) => JSON.stringify(l) + "\n").join("")),
  ]);
  let written = "";
  const output = new WritableStream<Uint8Array>({
    write: (chunk) => void (written += new TextDecoder().decode(chunk)),
  });
  const result = await answerHandshake(manifestOfSpec(boot().spec), input, output);
  let closedIdle = false;
  result.closedIdle.then(() => closedIdle = true);
  let wanted = false;
  result.wanted.then(() => wanted = true);
  let left = "";
  for await (const chunk of result.input) left += new TextDecoder().decode(chunk);
  return {
    answers: written.split("\n").filter(Boolean).map((line) => JSON.parse(line)),
    left: left.split("\n").filter(Boolean).map((line) => JSON.parse(line).method),
    closedIdle,
    wanted,
  };
}

Deno.test("the quick path negotiates protocol versions exactly as the SDK does", () => {
  assert.equal(LATEST_PROTOCOL_VERSION, SDK_LATEST);
  assert.deepEqual(SUPPORTED_PROTOCOL_VERSIONS, SDK_SUPPORTED);
});

Deno.test("the quick path answers initialize and tools/list, and hands every other line on in order", async () => {
  const { answers, left } = await handshake([
    INITIALIZE,
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 1, method: "tools/list" },
    { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "hello_ping" } },
  ]);
  assert.deepEqual(answers.map((answer) => answer.id), [0, 1]);
  assert.deepEqual(left, ["initialize", "notifications/initialized", "tools/call"]);
});

Deno.test("the quick path leaves a session that does not start with initialize to the SDK", async () => {
  const { answers, left } = await handshake([{ jsonrpc: "2.0", id: 1, method: "tools/list" }, INITIALIZE]);
  assert.deepEqual(answers, []);
  assert.deepEqual(left, ["tools/list", "initialize"]);
});

Deno.test("over stdio the quick handshake tells the client what the SDK server does, then serves calls", async () => {
  await using direct = await connect(boot());
  await using spawned = await spawnStdio("hello");
  let stderr = "";
  spawned.transport.stderr?.on("data", (chunk: Uint8Array) => stderr += new TextDecoder().decode(chunk));
  assert.deepEqual(spawned.client.getServerCapabilities(), direct.client.getServerCapabilities());
  assert.deepEqual(spawned.client.getServerVersion(), direct.client.getServerVersion());
  assert.equal(spawned.client.getInstructions(), direct.client.getInstructions());
  assert.deepEqual(await spawned.client.listTools(), await direct.client.listTools());
  const echoed = await spawned.client.callTool({
    name: "hello_echo",
    arguments: { text: "after the handoff" },
  });
  assert.equal(echoed.isError, undefined);
  assert.match(JSON.stringify(echoed.content), /after the handoff/);
  await spawned.client.ping();
  assert.doesNotMatch(stderr, /quick start answered initialize/);
});

Deno.test("over stdio the server asks a client that offers roots for them after the quick handshake", async () => {
  await using workspace = await tempWorkspace();
  const hello = listServers().find((server) => server.name === "hello")!;
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: runArgs(hello),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => stderr += new TextDecoder().decode(chunk));
  const client = new Client({ name: "t", version: "0" }, { capabilities: { roots: { listChanged: true } } });
  let asked = 0;
  client.setRequestHandler(ListRootsRequestSchema, () => {
    asked++;
    return { roots: [{ uri: pathToFileURL(workspace.path).href }] };
  });
  await client.connect(transport);
  try {
    const whoami = await client.callTool({ name: "hello_whoami", arguments: {} });
    assert.equal(asked, 1);
    assert.match(JSON.stringify(whoami.content), new RegExp(workspace.path.split("/").at(-1)!));
  } finally {
    await client.close();
  }
  assert.doesNotMatch(stderr, /quick start answered initialize/);
});

Deno.test("the quick path tells when the client leaves right after the handshake, and only then", async () => {
  const listed = await handshake([INITIALIZE, INITIALIZED, LIST]);
  assert.deepEqual([listed.closedIdle, listed.wanted], [true, false], "left idle: nothing to load for");
  const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "hello_ping" } };
  const called = await handshake([INITIALIZE, INITIALIZED, LIST, call]);
  assert.deepEqual([called.closedIdle, called.wanted], [false, true], "a call: the server is wanted");
  assert.equal(
    (await handshake([INITIALIZE, INITIALIZED, { jsonrpc: "2.0", id: 1, method: "ping" }])).closedIdle,
    false,
  );
});

Deno.test("over stdio a call sent with the handshake, then stdin closed, is still answered before the exit", async () => {
  const hello = listServers().find((server) => server.name === "hello")!;
  const child = new Deno.Command(Deno.execPath(), {
    args: runArgs(hello),
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "hello_ping", arguments: {} } };
  const writer = child.stdin.getWriter();
  await writer.write(
    new TextEncoder().encode(
      [INITIALIZE, INITIALIZED, LIST, call].map((line) => JSON.stringify(line) + "\n").join(""),
    ),
  );
  await writer.close();
  const { code, stdout } = await child.output();
  const answers = new TextDecoder().decode(stdout).split("\n").filter(Boolean).map((line) =>
    JSON.parse(line)
  );
  assert.equal(code, 0);
  assert.deepEqual(answers.map((answer) => answer.id), [0, 1, 2]);
  assert.match(JSON.stringify(answers[2].result), /pong/);
});

Deno.test("a client quiet after initialize ends the quick path, and what it sends later still gets through", async () => {
  let feed!: ReadableStreamDefaultController<Uint8Array>;
  const input = new ReadableStream<Uint8Array>({ start: (controller) => void (feed = controller) });
  const line = (message: object) => new TextEncoder().encode(JSON.stringify(message) + "\n");
  feed.enqueue(line(INITIALIZE));
  feed.enqueue(line(INITIALIZED));
  const result = await answerHandshake(manifestOfSpec(boot().spec), input, new WritableStream());
  assert.equal(result.initialize?.id, 0);
  feed.enqueue(line(LIST));
  feed.close();
  let left = "";
  for await (const chunk of result.input) left += new TextDecoder().decode(chunk);
  const methods = left.split("\n").filter(Boolean).map((text) => JSON.parse(text).method);
  assert.deepEqual(methods, ["initialize", "notifications/initialized", "tools/list"]);
});
