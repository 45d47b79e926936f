/**
 * A stdio server (_servers/leaky.ts) that puts the secret its config's env gives it into its errors, its
 * results and a flood of stderr, or dies with 200 KB of stderr again and again: the agent and the log see
 * it redacted, and small.
 */
import assert from "node:assert/strict";
import { Downstreams } from "../../../mcp/gateway/downstream.ts";
import { frontDownstreams } from "../../../mcp/gateway/boot.ts";
import { loadServerSdk } from "../../../lib/mcp/server.ts";
import type { CallToolResult } from "../../../lib/mcp/sdk.ts";
import { connect, textOf } from "../../_support/connect.ts";
import { waitFor } from "../../_support/poll.ts";
import { scriptServer } from "./_config.ts";
import { assertClean, ENV_SECRET, errorOf, logged, SMALL } from "./_leak.ts";

Deno.test("leak: a stdio server's errors, results and stderr carrying its env secret are redacted and cut", async () => {
  const { lines, log } = logged();
  await using downstreams = new Downstreams(
    [scriptServer("leaky", "leaky.ts", { env: { LEAKY_SECRET: ENV_SECRET } })],
    { log },
  );
  await downstreams.start();
  assert.equal(downstreams.status()[0].state, "up", downstreams.status()[0].reason);

  const fail = await errorOf(downstreams.call("leaky__fail", {}));
  assert.match(fail.message, /cannot reach the API with key \[redacted\]/);
  assertClean(fail.message, "a JSON-RPC error");

  const big = await errorOf(downstreams.call("leaky__fail_big", {}));
  assert.ok(big.message.length < SMALL, `error of ${big.message.length} characters`);
  assert.match(big.message, /cut/);
  assertClean(big.message, "a 200 KB error");

  const result: CallToolResult = await downstreams.call("leaky__fail_result", {});
  assert.match(textOf(result), /unknown key \[redacted\]/);
  assertClean(JSON.stringify(result), "an isError result");

  assert.equal(textOf(await downstreams.call("leaky__flood", {})), "flooded");
  // stderr and stdout are two pipes: the flood may still be arriving after the result.
  await waitFor("the stderr budget to run out", () => lines.some((line) => /over its log budget/.test(line)));
  await downstreams.close();
  const all = lines.join("\n");
  assertClean(all, "the log");
  assert.match(all, /\[leaky\] starting with key \[redacted\]/);
  assert.ok(all.length < 100_000, `1.3 MB of stderr made ${all.length} characters of log`);
  for (const line of lines) assert.ok(line.length < SMALL, `a log line of ${line.length} characters`);
});

Deno.test("leak: a stdio server that dies with 200 KB of stderr, five times, leaves a small call error and log", async () => {
  const { lines, log } = logged();
  // Restarts without waiting, on a clock that stands still: the stderr budget never refills.
  const retry = { baseDelayMs: 0, maxDelayMs: 0, breakerThreshold: 5, breakerCooldownMs: 0 };
  const downstreams = new Downstreams(
    [scriptServer("dying", "leaky.ts", { env: { LEAKY_SECRET: ENV_SECRET, LEAKY_DIE: "1" } })],
    { log, now: () => 0, retry },
  );
  await loadServerSdk();
  const handle = frontDownstreams(downstreams, { workspaceRoots: [], cleanup: () => downstreams.close() });
  await using client = await connect(handle);
  await downstreams.start();
  for (let i = 0; i < 5; i++) await downstreams.retryDown();
  const [status] = downstreams.status();
  assert.equal(status.state, "down");
  assert.match(status.reason ?? "", /failures in a row/);
  const error = textOf(await client.call("gateway_call", { name: "dying__fail", arguments: {} }));
  assert.match(error, /^Error \[unavailable\]: .*MCP server "dying" is (down|connecting)/);
  assert.ok(error.length < SMALL, `call error of ${error.length} characters`);
  const search = await client.text("gateway_search", { query: "fail" });
  assert.ok(search.length < SMALL, `search reply of ${search.length} characters`);
  const all = lines.join("\n");
  assertClean(all, "the log");
  assert.match(all, /\[dying\] fatal: the API refused key \[redacted\]/);
  assert.match(all, /over its log budget/);
  assert.ok(
    all.length < 40_000,
    `six crashes with 200 KB of stderr each made ${all.length} characters of log`,
  );
});
