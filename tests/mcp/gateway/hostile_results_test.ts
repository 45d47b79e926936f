/**
 * A downstream server attacks the gateway through its results: larger than the SDK's 10 MB read limit,
 * larger than any message may be, thousands of small blocks, a huge image. The server must survive (its
 * state kept), the agent must get a bounded result that says what was cut.
 */
import assert from "node:assert/strict";
import { textOf } from "../../_support/connect.ts";
import { RESULT_BUDGET_CHARS } from "../../../mcp/gateway/result_cap.ts";
import type { CallToolResult } from "../../../lib/mcp/sdk.ts";
import { scriptServer } from "./_config.ts";
import { front } from "./_gateway.ts";

/** The JSON size of the whole result: what the agent's context pays for. */
const size = (result: CallToolResult) => JSON.stringify(result).length;

Deno.test("hostile results: 11 MB and 50 MB results keep the server running; the agent gets a capped text", async () => {
  await using gateway = await front([scriptServer("hostile", "hostile.ts")]);
  const pid = textOf(await gateway.call("hostile__pid"));
  for (const mb of [11, 50]) {
    const result = await gateway.call("hostile__big", { mb });
    assert.notEqual(result.isError, true, textOf(result).slice(0, 300));
    assert.ok(size(result) < RESULT_BUDGET_CHARS + 2_000, `${mb} MB became ${size(result)} characters`);
    assert.match(textOf(result), /^a+\n\[\.\.\. [\d,]+ bytes \/ 0 lines cut \.\.\.\]\na+$/);
    assert.equal(textOf(await gateway.call("hostile__pid")), pid, `the server survived ${mb} MB`);
  }
});

Deno.test("hostile results: a result over the 128 MiB message limit fails that call alone, too_large", async () => {
  await using gateway = await front([scriptServer("hostile", "hostile.ts")]);
  const pid = textOf(await gateway.call("hostile__pid"));
  const result = await gateway.call("hostile__big", { mb: 140 });
  assert.equal(result.isError, true);
  assert.match(
    textOf(result),
    /^Error \[too_large\]: Cannot call "big" on MCP server "hostile": Response too large: 134M, the limit is 128M; ask the tool for less$/,
  );
  assert.equal(textOf(await gateway.call("hostile__pid")), pid, "the server survived");
});
