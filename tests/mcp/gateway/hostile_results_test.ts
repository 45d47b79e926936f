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

/** Every character of text the agent gets, over all blocks. */
function textChars(result: CallToolResult): number {
  return result.content.reduce((sum, block) => sum + (block.type === "text" ? block.text.length : 0), 0);
}

Deno.test("hostile results: 20,000 and 60,000 blocks of 100 characters are cut to the budget, saying so", async () => {
  await using gateway = await front([scriptServer("hostile", "hostile.ts")]);
  for (const count of [20_000, 60_000]) {
    const result = await gateway.call("hostile__blocks", { count, size: 100 });
    assert.ok(
      textChars(result) <= RESULT_BUDGET_CHARS + 500,
      `${count} blocks gave ${textChars(result)} characters`,
    );
    assert.ok(
      size(result) < RESULT_BUDGET_CHARS * 2,
      `${count} blocks gave a ${size(result)}-character result`,
    );
    const note = result.content.at(-1);
    assert.equal(note?.type, "text");
    assert.match(
      note?.type === "text" ? note.text : "",
      new RegExp(
        `^\\[gateway: cut [\\d,]+ of ${
          count.toLocaleString("en-US")
        } content blocks \\([\\d,]+ characters\\)`,
      ),
    );
  }
});

Deno.test("hostile results: a 9 MB image is dropped with a note; huge _meta and unknown keys do not pass", async () => {
  await using gateway = await front([scriptServer("hostile", "hostile.ts")]);
  const image = await gateway.call("hostile__image", { mb: 9 });
  assert.ok(size(image) < 10_000, `the image result is ${size(image)} characters`);
  assert.deepEqual(image.content.map((block) => block.type), ["text"]);
  assert.match(textOf(image), /^\[gateway: cut .*an image \(image\/png, [\d.]+M\)/);
  const extras = await gateway.call("hostile__extras", { mb: 2 });
  assert.ok(size(extras) < 10_000, `the extras result is ${size(extras)} characters`);
  assert.equal(textOf(extras), "small");
});
