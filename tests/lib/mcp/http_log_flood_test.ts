/**
 * What a request without the token can make the server write on stderr: a Host header no URL can be made of
 * (`127.0.0.1:99999`, two hosts in one) once threw in the handler, and each threw a stack trace into the log.
 * @module
 */
import assert from "node:assert/strict";
import { postMcp, spawnHttp } from "../../_support/http.ts";
import { openRaw, statusOf } from "../../_support/raw_http.ts";
import { waitFor } from "../../_support/poll.ts";

/** Sends one raw request and resolves to its status line's code once it has arrived. */
async function rawStatus(url: string, text: string): Promise<number | undefined> {
  await using connection = await openRaw(url, text);
  await waitFor("an answer", () => statusOf(connection.received) !== undefined || connection.ended);
  return statusOf(connection.received);
}

Deno.test("http: 200 requests with a malformed Host get a small 400 each, the log stays small, the server serves on", async () => {
  await using server = await spawnHttp("hello", { env: { MCP_LOG: "debug" } });
  const { port } = new URL(server.url);
  const hosts = ["127.0.0.1:99999", `127.0.0.1:${port}, evil.example`, "[::1", "a b", "127.0.0.1:-1"];
  const before = server.stderr().length;
  for (let batch = 0; batch < 200; batch += 10) {
    await Promise.all(Array.from({ length: 10 }, async (_, j) => {
      const host = hosts[(batch + j) % hosts.length];
      const method = j % 2 ? "GET" : "POST";
      const text = `${method} /mcp HTTP/1.1\r\nhost: ${host}\r\ncontent-length: 0\r\n\r\n`;
      assert.equal(await rawStatus(server.url, text), 400, host);
    }));
  }
  const answer = await postMcp(server.url, server.headers);
  assert.equal(answer.status, 200);
  const stderr = await server.stop();
  const added = stderr.slice(before);
  assert.ok(added.length < 2048, `${added.length} bytes of stderr:\n${added.slice(0, 3000)}`);
  assert.doesNotMatch(added, /\n\s+at /, "no stack trace");
});
