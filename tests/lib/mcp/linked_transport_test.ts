import assert from "node:assert/strict";
import { createLinkedPair } from "../../../lib/mcp/linked_transport.ts";
import {
  CallToolRequestSchema,
  type JSONRPCMessage,
  ListRootsRequestSchema,
  Server,
} from "../../../lib/mcp/sdk.ts";
import { Client } from "../../../lib/mcp/sdk_client.ts";

Deno.test("linked pair: messages arrive in the order sent, never synchronously", async () => {
  const [a, b] = createLinkedPair();
  const seen: number[] = [];
  b.onmessage = (message) => seen.push((message as unknown as { params: { n: number } }).params.n);
  await a.start();
  await b.start();
  const sends = [];
  for (let n = 0; n < 1000; n++) sends.push(a.send({ jsonrpc: "2.0", method: "tick", params: { n } }));
  assert.equal(seen.length, 0);
  await Promise.all(sends);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(seen, Array.from({ length: 1000 }, (_, n) => n));
  await a.close();
});

Deno.test("linked pair: close() closes both sides and stops delivery", async () => {
  const [a, b] = createLinkedPair();
  let closed = 0;
  a.onclose = () => closed++;
  b.onclose = () => closed++;
  const received: JSONRPCMessage[] = [];
  a.onmessage = (message) => received.push(message);
  await b.close();
  assert.equal(closed, 2);
  await assert.rejects(b.send({ jsonrpc: "2.0", method: "late" }));
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(received, []);
});

Deno.test("linked pair: 10,000 nested request hops complete without stack overflow", async () => {
  const HOPS = 10_000;
  const server = new Server({ name: "hop", version: "0" }, { capabilities: { tools: {} } });
  const client = new Client({ name: "hop-client", version: "0" }, { capabilities: { roots: {} } });
  let remaining = HOPS;
  let deepest = 0;
  // Each hop: the client calls the tool, the tool asks the client for roots, the client calls the tool again.
  server.setRequestHandler(CallToolRequestSchema, async () => {
    await server.listRoots();
    return { content: [{ type: "text", text: "ok" }] };
  });
  client.setRequestHandler(ListRootsRequestSchema, async () => {
    if (remaining > 0) {
      remaining--;
      deepest++;
      await client.callTool({ name: "hop", arguments: {} });
    }
    return { roots: [] };
  });
  const [clientSide, serverSide] = createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  const result = await client.callTool({ name: "hop", arguments: {} });
  assert.deepEqual(result.content, [{ type: "text", text: "ok" }]);
  assert.equal(deepest, HOPS);
  await client.close();
});
