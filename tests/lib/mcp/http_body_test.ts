import assert from "node:assert/strict";
import { serveHttp } from "../../../lib/mcp/http.ts";
import { createServer } from "../../../mcp/hello/server.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { spawnHttp } from "../../_support/http.ts";
import {
  INITIALIZE_BODY,
  openRaw,
  postHead,
  postStatus,
  type RawConnection,
} from "../../_support/raw_http.ts";
import { waitFor } from "../../_support/poll.ts";

/** Bodies no server instance could answer, each sent without a session id. */
const MALFORMED = [
  "",
  "not json",
  "{}",
  "[]",
  JSON.stringify({ jsonrpc: "1.0", id: 1, method: "initialize" }),
  JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }),
  JSON.stringify([JSON.parse(INITIALIZE_BODY), { jsonrpc: "2.0", id: 2, method: "tools/list" }]),
];

Deno.test("http body: 300 malformed session-less POSTs are refused with 400 and boot no server", async () => {
  let booted = 0;
  const server = await serveHttp(() => {
    booted++;
    return createServer({ workspace: Workspace.fromEnv() });
  }, { listen: { hostname: "127.0.0.1", port: 0 } });
  try {
    for (let i = 0; i < 300; i++) {
      assert.equal(await postStatus(server.url, MALFORMED[i % MALFORMED.length]), 400, MALFORMED[i % 9]);
    }
    assert.equal(booted, 0);
    assert.equal(await postStatus(server.url, INITIALIZE_BODY), 200);
    assert.equal(booted, 1);
  } finally {
    await server.close();
  }
});

Deno.test("http body: stateless, a malformed POST or a lone notification boots no server", async () => {
  let booted = 0;
  const server = await serveHttp(() => {
    booted++;
    return createServer({ workspace: Workspace.fromEnv() });
  }, { listen: { hostname: "127.0.0.1", port: 0 }, stateless: true });
  try {
    for (const body of MALFORMED.slice(0, 5)) assert.equal(await postStatus(server.url, body), 400, body);
    const notification = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });
    assert.equal(await postStatus(server.url, notification), 202);
    assert.equal(booted, 0);
    const list = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    assert.equal(await postStatus(server.url, list, { "mcp-protocol-version": "2025-11-25" }), 200);
    assert.equal(booted, 1);
  } finally {
    await server.close();
  }
});

Deno.test("http body: a body over the cap gets 413, whether declared or streamed", async () => {
  await using server = await spawnHttp("hello", { env: { MCP_HTTP_MAX_BODY_BYTES: "1000" } });
  const big = JSON.stringify({ ...JSON.parse(INITIALIZE_BODY), padding: "x".repeat(2000) });
  assert.equal(await postStatus(server.url, big, server.headers), 413);
  // Chunked, with no Content-Length to refuse it by.
  const streamed = await fetch(server.url, {
    method: "POST",
    headers: {
      ...server.headers,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: ReadableStream.from([new TextEncoder().encode(big)]),
  });
  assert.equal(streamed.status, 413);
  assert.match((await streamed.json()).error.message, /must not exceed 1000 bytes/);
  assert.equal(await postStatus(server.url, INITIALIZE_BODY, server.headers), 200);
});

Deno.test("http body: a POST whose body stalls is dropped and its connection closed", async () => {
  await using server = await spawnHttp("hello", { env: { MCP_HTTP_BODY_TIMEOUT_S: "1" } });
  const held: RawConnection[] = [];
  for (let i = 0; i < 20; i++) {
    const head = i % 2
      ? postHead(server.url, { ...server.headers, "content-length": "1000" })
      : postHead(server.url, { ...server.headers, "transfer-encoding": "chunked" });
    held.push(await openRaw(server.url, head + (i % 2 ? '{"jsonrpc"' : '9\r\n{"jsonrpc"\r\n')));
  }
  await waitFor("the server to close every stalled POST", () => held.every((connection) => connection.ended));
  assert.ok(held.every((connection) => !/^HTTP\/1\.1 200/.test(connection.received)));
  assert.equal(await postStatus(server.url, INITIALIZE_BODY, server.headers), 200);
  for (const connection of held) await connection[Symbol.asyncDispose]();
});
