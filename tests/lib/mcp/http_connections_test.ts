/**
 * Connection slots against a local user without the token: refused requests close their connection (their
 * body unread), and a full server makes room by dropping a connection that never passed the token check.
 * @module
 */
import assert from "node:assert/strict";
import { connectHttpClient, spawnHttp } from "../../_support/http.ts";
import { INITIALIZE_BODY, openRaw, postHead, type RawConnection, statusOf } from "../../_support/raw_http.ts";
import { waitFor } from "../../_support/poll.ts";

/** No connection is let go for slow headers during these tests: only what they test closes one. */
const HOLD = { MCP_HTTP_HEADERS_TIMEOUT_S: "600" };

/** An authenticated initialize, written on a raw keep-alive connection. */
function authedInitialize(url: string, headers: Record<string, string>): string {
  return postHead(url, { ...headers, "content-length": `${INITIALIZE_BODY.length}` }) + INITIALIZE_BODY;
}

/** How many answers with `status` arrived on `connection`. */
function answers(connection: RawConnection, status: number): number {
  return connection.received.split(`HTTP/1.1 ${status} `).length - 1;
}

Deno.test("http connections: an answer to a request that did not pass the guard closes its connection; a passed one keeps it", async () => {
  await using server = await spawnHttp("hello", { env: HOLD });
  const { host } = new URL(server.url);
  await using notFound = await openRaw(server.url, `GET /x HTTP/1.1\r\nhost: ${host}\r\n\r\n`);
  await using noToken = await openRaw(server.url, authedInitialize(server.url, {}));
  await using foreignHost = await openRaw(server.url, authedInitialize(server.url, { host: "evil.example" }));
  await using authed = await openRaw(server.url, authedInitialize(server.url, server.headers));
  const refused = [notFound, noToken, foreignHost];
  await waitFor("the refused connections closed by the server", () => refused.every((c) => c.ended));
  assert.deepEqual(refused.map((c) => statusOf(c.received)), [404, 401, 403]);
  assert.ok(refused.every((c) => /\r\nconnection: close\r\n/i.test(c.received)));
  // The authenticated connection is still open: a second request on it is answered too.
  await waitFor("the first answer", () => answers(authed, 200) === 1);
  await authed.write(authedInitialize(server.url, server.headers));
  await waitFor("the second answer", () => answers(authed, 200) === 2);
  assert.equal(authed.ended, false);
});

Deno.test("http connections: a 200 MB body sent without the token after its 401 is not read", async () => {
  await using server = await spawnHttp("hello", { env: HOLD });
  const { hostname, port, host } = new URL(server.url);
  using conn = await Deno.connect({ hostname, port: Number(port) });
  const size = 200_000_000;
  const head = `POST /mcp HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/json\r\n` +
    `content-length: ${size}\r\n\r\n`;
  await conn.write(new TextEncoder().encode(head));
  const answer = new Uint8Array(4096);
  const count = await conn.read(answer);
  assert.match(new TextDecoder().decode(answer.subarray(0, count ?? 0)), /^HTTP\/1\.1 401 /);
  // The attacker goes on sending its body; the server has closed the connection, so the writes soon fail.
  const chunk = new Uint8Array(1 << 20);
  let written = 0;
  let failed = false;
  while (written < size && !failed) {
    try {
      written += await conn.write(chunk);
    } catch {
      failed = true;
    }
  }
  assert.ok(failed, `the server read all ${written} bytes`);
  // What the two sockets' buffers hold before the reset arrives, far below the body's 200 MB.
  assert.ok(written < 32 << 20, `${written} bytes were accepted`);
});

Deno.test("http connections: a full server drops the oldest connection that never passed the token check for a new one", async () => {
  await using server = await spawnHttp("hello", { env: { ...HOLD, MCP_HTTP_MAX_CONNECTIONS: "3" } });
  await using idleA = await openRaw(server.url);
  await using authed = await openRaw(server.url, authedInitialize(server.url, server.headers));
  await waitFor("the authenticated answer", () => answers(authed, 200) === 1);
  await using idleC = await openRaw(server.url);
  await using newD = await openRaw(server.url);
  await waitFor("the oldest unauthenticated connection dropped", () => idleA.ended);
  await using newE = await openRaw(server.url);
  await waitFor("the next oldest unauthenticated connection dropped", () => idleC.ended);
  assert.equal(newD.ended, false);
  assert.equal(newE.ended, false);
  await authed.write(authedInitialize(server.url, server.headers));
  await waitFor("a second answer on the authenticated connection", () => answers(authed, 200) === 2);
  assert.equal(server.stderr().match(/dropping/g)?.length, 1, server.stderr());
});

Deno.test("http connections: when every open connection passed the token check, a new one is closed at once", async () => {
  await using server = await spawnHttp("hello", { env: { ...HOLD, MCP_HTTP_MAX_CONNECTIONS: "2" } });
  const authed = [
    await openRaw(server.url, authedInitialize(server.url, server.headers)),
    await openRaw(server.url, authedInitialize(server.url, server.headers)),
  ];
  await waitFor("both answers", () => authed.every((c) => answers(c, 200) === 1));
  await using extra = await openRaw(server.url);
  await waitFor("the new connection closed", () => extra.ended);
  for (const connection of authed) await connection.write(authedInitialize(server.url, server.headers));
  await waitFor("a second answer on each", () => authed.every((c) => answers(c, 200) === 2));
  for (const connection of authed) await connection[Symbol.asyncDispose]();
});

Deno.test("http connections: 260 connections sending GET /x without the token every 2 s, and 260 idle ones, do not lock out an authenticated client", async () => {
  await using server = await spawnHttp("hello", { env: HOLD });
  const { host } = new URL(server.url);
  // The tester's attack: keep 260 connections (past the 256 cap) open, each asking for /x every 2 s, and
  // open a new one for each the server closes; 260 more send nothing, to hold their slot for the headers
  // timeout (600 s here).
  const probes = [...Array(260).fill(`GET /x HTTP/1.1\r\nhost: ${host}\r\n\r\n`), ...Array(260).fill("")];
  const flood: RawConnection[] = [];
  for (const probe of probes) flood.push(await openRaw(server.url, probe));
  await waitFor(
    "each probe answered or closed",
    () => flood.every((c, i) => c.ended || probes[i] === "" || statusOf(c.received) === 404),
  );
  let stopped = false;
  const ticking = (async () => {
    while (!stopped) {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      for (let i = 0; i < flood.length && !stopped; i++) {
        if (flood[i].ended) {
          await flood[i][Symbol.asyncDispose]();
          flood[i] = await openRaw(server.url, probes[i]);
        } else if (probes[i]) await flood[i].write(probes[i]).catch(() => {});
      }
    }
  })();
  try {
    const { client } = await connectHttpClient(server.url, server.headers);
    assert.equal((await client.listTools()).tools.length, 3);
    const result = await client.callTool({ name: "hello_echo", arguments: { text: "served" } });
    assert.deepEqual(result.content, [{ type: "text", text: "served" }]);
    await client.close();
  } finally {
    stopped = true;
    await ticking;
    for (const connection of flood) await connection[Symbol.asyncDispose]();
  }
});
