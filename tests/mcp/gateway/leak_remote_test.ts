/**
 * A hostile remote server (_remote/hostile.ts, real HTTP on 127.0.0.1) answering 500 with a 200 KB HTML
 * page, or with a body echoing the request's headers: what reaches the agent (search, call errors, reasons)
 * and the log stays small, says it was cut, and shows none of the entry's header values.
 */
import assert from "node:assert/strict";
import { Downstreams } from "../../../mcp/gateway/downstream.ts";
import { frontDownstreams } from "../../../mcp/gateway/boot.ts";
import { loadServerSdk } from "../../../lib/mcp/server.ts";
import { connect, textOf } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { startHostileServer } from "./_remote/hostile.ts";
import { assertClean, BEARER, logged, remote, SMALL } from "./_leak.ts";

Deno.test("leak: a remote 500 with a 200 KB HTML page leaves the search reply and the call error small, saying so", async () => {
  await using hostile = startHostileServer();
  await using tokens = await tempWorkspace();
  const { lines, log } = logged();
  hostile.failing = "html";
  let clock = 0;
  const downstreams = new Downstreams(remote("web", hostile.url), {
    log,
    now: () => clock,
    remote: { tokenDir: tokens.path },
  });
  await loadServerSdk();
  const handle = frontDownstreams(downstreams, {
    workspaceRoots: [],
    cleanup: () => downstreams.close(),
  });
  await using client = await connect(handle);
  await downstreams.start();
  assert.equal(downstreams.status()[0].state, "down");

  const search = await client.text("gateway_search", { query: "anything" });
  assert.ok(search.length < SMALL, `search reply is ${search.length} characters`);
  assert.match(search, /down: web \(Cannot connect to MCP server "web": .*Internal Server Error.*cut/);
  assert.doesNotMatch(search, /<div|<style|<script|&amp;/, "HTML is shown as its text");

  // Five failures in a row: the breaker's note joins the reason, which stays small.
  for (let i = 0; i < 5; i++) {
    clock += 120_000;
    await downstreams.retryDown();
  }
  const reason = downstreams.status()[0].reason ?? "";
  assert.ok(reason.length < SMALL, `reason is ${reason.length} characters`);
  assert.match(reason, /failures in a row/);

  // The server comes up; its tool's call gets the 200 KB page.
  hostile.failing = undefined;
  clock += 120_000;
  await downstreams.retryDown();
  assert.equal(downstreams.status()[0].state, "up", downstreams.status()[0].reason);
  const result = await client.call("gateway_call", { name: "web__explode", arguments: {} });
  assert.equal(result.isError, true);
  const text = textOf(result);
  assert.ok(text.length < SMALL, `call error is ${text.length} characters`);
  assert.match(text, /^Error \[internal\]: Cannot call "explode" on MCP server "web": .*cut/);
  for (const line of lines) assert.ok(line.length < SMALL, `a log line of ${line.length} characters`);
});

Deno.test("leak: a remote body echoing the request's headers shows no configured header value anywhere", async () => {
  await using hostile = startHostileServer();
  await using tokens = await tempWorkspace();
  const { lines, log } = logged();
  hostile.failing = "echo";
  let clock = 0;
  const downstreams = new Downstreams(remote("echo", hostile.url), {
    log,
    now: () => clock,
    remote: { tokenDir: tokens.path },
  });
  await loadServerSdk();
  const handle = frontDownstreams(downstreams, { workspaceRoots: [], cleanup: () => downstreams.close() });
  await using client = await connect(handle);
  await downstreams.start();
  assert.ok(hostile.authorizationSeen.includes(`Bearer ${BEARER}`), "the header was sent");
  const [status] = downstreams.status();
  assert.equal(status.state, "down");
  assert.match(status.reason ?? "", /upstream refused the request.*\[redacted\]/);
  assertClean(status.reason ?? "", "the reason");
  assertClean(await client.text("gateway_search", { query: "leak" }), "the search reply");
  assertClean(
    textOf(await client.call("gateway_call", { name: "echo__leak", arguments: {} })),
    "a call to a down server",
  );

  hostile.failing = undefined;
  clock += 120_000;
  await downstreams.retryDown();
  assert.equal(downstreams.status()[0].state, "up");
  const result = await client.call("gateway_call", { name: "echo__leak", arguments: {} });
  assert.equal(result.isError, true);
  assert.match(textOf(result), /upstream refused/);
  assertClean(JSON.stringify(result), "the call error");
  assertClean(lines.join("\n"), "the log");
});
