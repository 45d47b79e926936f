import assert from "node:assert/strict";
import { gateInitialize } from "../../../lib/mcp/initialize_gate.ts";
import { type ClientCapabilities, type JSONRPCMessage, Server } from "../../../lib/mcp/sdk.ts";
import { Client, InMemoryTransport } from "../../../lib/mcp/sdk_client.ts";
import { waitFor } from "../../_support/poll.ts";

Deno.test("initialize gate: the answer waits for prepare, which gets the client's capabilities; instructions are read after", async () => {
  const server = new Server({ name: "gated", version: "0.0.0" }, { capabilities: {}, instructions: "early" });
  const release = Promise.withResolvers<void>();
  const seen: ClientCapabilities[] = [];
  let state = "preparing";
  gateInitialize(server, {
    async prepare(capabilities) {
      seen.push(capabilities);
      await release.promise;
      state = "ready";
    },
    instructions: () => `servers ${state}`,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "c", version: "0.0.0" }, {
    capabilities: { roots: { listChanged: true } },
  });
  let connected = false;
  const connecting = client.connect(clientSide).then(() => connected = true);
  await waitFor("prepare to start", () => seen.length === 1);
  assert.equal(connected, false, "the client is still waiting for the answer");
  release.resolve();
  await connecting;
  assert.deepEqual(seen, [{ roots: { listChanged: true } }]);
  assert.deepEqual(server.getClientCapabilities(), { roots: { listChanged: true } });
  assert.equal(client.getInstructions(), "servers ready");
  await client.ping();
  await client.close();
});

Deno.test("initialize gate: messages after a held initialize are handled after it, in order", async () => {
  const server = new Server({ name: "gated", version: "0.0.0" }, { capabilities: {} });
  const release = Promise.withResolvers<void>();
  let prepared = false;
  gateInitialize(server, {
    prepare: () => {
      prepared = true;
      return release.promise;
    },
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const answered: unknown[] = [];
  clientSide.onmessage = (message: JSONRPCMessage) => void ("id" in message && answered.push(message.id));
  await clientSide.start();
  await clientSide.send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
  });
  await clientSide.send({ jsonrpc: "2.0", id: 2, method: "ping" });
  await clientSide.send({ jsonrpc: "2.0", id: 3, method: "ping" });
  assert.ok(prepared);
  // One turn of the event loop: every microtask has run, so unheld pings would have their answers.
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(answered, []);
  release.resolve();
  await waitFor("three answers", () => answered.length === 3);
  assert.deepEqual(answered, [1, 2, 3]);
  await server.close();
});
