import assert from "node:assert/strict";
import { LineTransport, SYNC_WRITE_BYTES } from "../../../lib/mcp/line_transport.ts";
import type { JSONRPCMessage } from "../../../lib/mcp/sdk.ts";

interface Exchange {
  received: JSONRPCMessage[];
  sent: { id?: unknown; error?: { code: number; message: string } }[];
}

/** Feeds `chunks` to a transport, waits for its close at end of input, returns what it read and wrote. */
async function exchange(chunks: (string | Uint8Array)[], maxMessageBytes?: number): Promise<Exchange> {
  const input = ReadableStream.from(
    chunks.map((chunk) => typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk),
  );
  let written = "";
  const output = new WritableStream<Uint8Array>({
    write(chunk) {
      written += new TextDecoder().decode(chunk);
    },
  });
  // Nothing answers here: close as soon as the input ends.
  const transport = new LineTransport(input, output, { maxMessageBytes, drainMs: 0 });
  const received: JSONRPCMessage[] = [];
  const closed = new Promise<void>((resolve) => transport.onclose = resolve);
  transport.onmessage = (message) => received.push(message);
  await transport.start();
  await closed;
  await transport.send({ jsonrpc: "2.0", method: "notifications/end" } as JSONRPCMessage);
  const sent = written.trimEnd().split("\n").map((line) => JSON.parse(line)).slice(0, -1);
  return { received, sent };
}

const ping = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "ping" });

Deno.test("messages split across chunks, several in one chunk, CRLF and blank lines are read whole", async () => {
  const [a, b, c] = [ping(1), ping(2), ping(3)];
  const { received, sent } = await exchange([
    a.slice(0, 5),
    a.slice(5) + "\r\n\n" + b + "\n" + c.slice(0, 9),
    c.slice(9) + "\n",
  ]);
  assert.deepEqual(received.map((message) => (message as { id: number }).id), [1, 2, 3]);
  assert.deepEqual(sent, []);
});

Deno.test("a line that is not JSON gets -32700, JSON that is not JSON-RPC -32600 with its id", async () => {
  const { received, sent } = await exchange(["{oops\n", '{"id":7,"hello":1}\n', ping(8) + "\n"]);
  assert.deepEqual(sent.map((reply) => [reply.id, reply.error?.code]), [[null, -32700], [7, -32600]]);
  assert.deepEqual(received.map((message) => (message as { id: number }).id), [8]);
});

Deno.test("a message over the limit is refused for its own id, without being held, and the next one is read", async () => {
  const huge = JSON.stringify({
    jsonrpc: "2.0",
    id: "big-1",
    method: "tools/call",
    params: { x: "y".repeat(5000) },
  });
  const chunks = [
    huge.slice(0, 100),
    ...Array.from({ length: 50 }, (_, i) => huge.slice(100 + i * 100, 200 + i * 100)),
  ];
  const rest = huge.slice(100 + 50 * 100);
  const { received, sent } = await exchange([...chunks, rest + "\n" + ping(2) + "\n"], 1000);
  assert.equal(sent.length, 1);
  assert.equal(sent[0].id, "big-1");
  assert.equal(sent[0].error?.code, -32600);
  assert.match(sent[0].error!.message, /^Request too large: .*the limit is/);
  assert.deepEqual(received.map((message) => (message as { id: number }).id), [2]);
});

Deno.test("a message over the limit in a single chunk is refused too", async () => {
  const huge = JSON.stringify({
    jsonrpc: "2.0",
    id: 5,
    method: "tools/call",
    params: { x: "y".repeat(5000) },
  });
  const { received, sent } = await exchange([huge + "\n"], 1000);
  assert.deepEqual(sent.map((reply) => [reply.id, reply.error?.code]), [[5, -32600]]);
  assert.deepEqual(received, []);
});

Deno.test("requests read before the input ended are answered before the transport closes", async () => {
  let written = "";
  const output = new WritableStream<Uint8Array>({
    write(chunk) {
      written += new TextDecoder().decode(chunk);
    },
  });
  const transport = new LineTransport(
    ReadableStream.from([new TextEncoder().encode(ping(1) + "\n")]),
    output,
  );
  const events: string[] = [];
  const closed = new Promise<void>((resolve) =>
    transport.onclose = () => {
      events.push("closed");
      resolve();
    }
  );
  const read = new Promise<JSONRPCMessage>((resolve) => transport.onmessage = resolve);
  await transport.start();
  await read;
  // A macrotask later the input has surely ended; the answer comes only now, as a slow tool's would.
  await new Promise((resolve) => setTimeout(resolve, 0));
  events.push("answering");
  await transport.send({ jsonrpc: "2.0", id: 1, result: {} } as JSONRPCMessage);
  await closed;
  assert.deepEqual(events, ["answering", "closed"]);
  assert.deepEqual(JSON.parse(written), { jsonrpc: "2.0", id: 1, result: {} });
});

Deno.test("a request never answered holds the close only for the drain time", async () => {
  const output = new WritableStream<Uint8Array>();
  const transport = new LineTransport(
    ReadableStream.from([new TextEncoder().encode(ping(1) + "\n")]),
    output,
    {
      drainMs: 20,
    },
  );
  const closed = new Promise<void>((resolve) => transport.onclose = resolve);
  await transport.start();
  await closed;
});

Deno.test("an answer dropped on purpose is not written, yet counts as answered: the close does not wait", async () => {
  let written = "";
  const output = new WritableStream<Uint8Array>({
    write(chunk) {
      written += new TextDecoder().decode(chunk);
    },
  });
  // The quick start's case: the client has the answer to initialize already, the SDK's is dropped.
  const transport = new LineTransport(
    ReadableStream.from([new TextEncoder().encode(ping(1) + "\n" + ping(2) + "\n")]),
    output,
    { drainMs: 60 * 60_000, dropAnswer: (message) => "id" in message && message.id === 1 },
  );
  const closed = new Promise<void>((resolve) => transport.onclose = resolve);
  transport.onmessage = (message) => {
    if ("id" in message) transport.send({ jsonrpc: "2.0", id: message.id, result: {} } as JSONRPCMessage);
  };
  await transport.start();
  let deadline: ReturnType<typeof setTimeout> | undefined;
  const heldForTheDrain = new Promise<never>((_, reject) => {
    deadline = setTimeout(() => reject(new Error("the close waited for the dropped answer")), 30_000);
  });
  try {
    await Promise.race([closed, heldForTheDrain]);
  } finally {
    clearTimeout(deadline);
  }
  assert.deepEqual(written.trimEnd().split("\n").map((line) => JSON.parse(line).id), [2]);
});

Deno.test("on stdout, small messages are written at once, a large one and those behind it in order, whole", async () => {
  let written = new Uint8Array(0);
  const take = (bytes: Uint8Array) => {
    // A pipe may take fewer bytes than offered: at most 7 a call here.
    const taken = bytes.subarray(0, 7);
    const joined = new Uint8Array(written.length + taken.length);
    joined.set(written);
    joined.set(taken, written.length);
    written = joined;
    return taken.length;
  };
  const calls: string[] = [];
  const output = {
    writeSync(bytes: Uint8Array): number {
      calls.push("sync");
      return take(bytes);
    },
    async write(bytes: Uint8Array): Promise<number> {
      calls.push("async");
      await Promise.resolve();
      return take(bytes);
    },
  };
  const transport = new LineTransport(ReadableStream.from<Uint8Array>([]), output, { drainMs: 0 });
  const big = "x".repeat(SYNC_WRITE_BYTES);
  const messages = [
    { jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1, progressToken: "é" } },
    { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: big }] } },
    { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "pong ✓" }] } },
  ] as JSONRPCMessage[];
  // Not awaited one by one: the last one is sent while the large one is still being written.
  await Promise.all(messages.map((message) => transport.send(message)));
  const lines = new TextDecoder().decode(written).trimEnd().split("\n").map((line) => JSON.parse(line));
  assert.deepEqual(lines, messages);
  // The first message went out at once; everything after it queued behind the large one.
  assert.equal(calls[0], "sync");
  assert.ok(calls.lastIndexOf("sync") < calls.indexOf("async"), "nothing jumps the queued large message");
  await transport.send(messages[2]);
  assert.equal(calls.at(-1), "sync", "the queue drained: small messages go at once again");
});
