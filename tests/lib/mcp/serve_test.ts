import assert from "node:assert/strict";
import { listServers, runArgs } from "../../../tools/catalog.ts";
import { spawnStdio } from "../../_support/stdio.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

/** The hello server's stdio entry, spawned with raw pipes (no SDK client in between). */
function spawnHello(): Deno.ChildProcess {
  const hello = listServers().find((server) => server.name === "hello")!;
  return new Deno.Command(Deno.execPath(), {
    args: runArgs(hello),
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
}

/** Writes raw lines to a spawned hello server and reads its replies until the one with id 1. */
async function rawSession(lines: string[]): Promise<{ id?: unknown }[]> {
  const child = spawnHello();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(lines.map((line) => line + "\n").join("")));
  const replies: { id?: unknown }[] = [];
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  while (!replies.some((reply) => reply.id === 1)) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += value;
    let newline;
    while ((newline = buffered.indexOf("\n")) >= 0) {
      replies.push(JSON.parse(buffered.slice(0, newline)));
      buffered = buffered.slice(newline + 1);
    }
  }
  await writer.close();
  await reader.cancel();
  await child.status;
  return replies;
}

Deno.test("a line that is not JSON gets a -32700 reply, JSON that is not JSON-RPC a -32600, and the server goes on", async () => {
  const initialize = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
  };
  const [parse, invalid, answer] = await rawSession([
    "{not json",
    '{"hello":1}',
    JSON.stringify(initialize),
  ]) as {
    id: unknown;
    error?: { code: number; message: string };
    result?: unknown;
  }[];
  assert.equal(parse.id, null);
  assert.equal(parse.error?.code, -32700);
  assert.match(parse.error!.message, /^Parse error/);
  assert.equal(invalid.id, null);
  assert.equal(invalid.error?.code, -32600);
  assert.equal(answer.id, 1);
  assert.ok(answer.result, "the server still answers after bad lines");
});

Deno.test("an 11 MB request is served over stdio (the SDK's transport closed at 10 MB)", async () => {
  await using workspace = await tempWorkspace();
  await using connection = await spawnStdio("edit", { cwd: workspace.path });
  const content = "0123456789abcde\n".repeat(11 * 65_536);
  const result = await connection.client.callTool({
    name: "edit_write",
    arguments: { path: "big.txt", content },
  });
  assert.equal(result.isError, undefined, JSON.stringify(result).slice(0, 300));
  assert.equal((await Deno.stat(workspace.join("big.txt"))).size, content.length);
});

Deno.test("a one-shot client that closes stdin right after its requests still gets every reply", async () => {
  const child = spawnHello();
  const lines = [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "one-shot", version: "0" },
      },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 2, method: "tools/list" },
    {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "hello_echo", arguments: { text: "bye" } },
    },
  ];
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(lines.map((line) => JSON.stringify(line) + "\n").join("")));
  await writer.close();
  const { code, stdout } = await child.output();
  const replies = new TextDecoder().decode(stdout).trimEnd().split("\n").map((line) => JSON.parse(line));
  assert.deepEqual(replies.map((reply) => reply.id), [1, 2, 3]);
  assert.ok(replies[1].result.tools.length > 0);
  assert.match(JSON.stringify(replies[2].result), /bye/);
  assert.equal(code, 0);
});
