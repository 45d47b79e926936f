import assert from "node:assert/strict";
import { connect } from "../../_support/connect.ts";
import { createServer } from "../../../mcp/notes/server.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { listTokens } from "../../../tools/tokens.ts";

/** The notes server's share of the 2,500-token tools/list budget (+20 for closed schemas, issue 11). */
const NOTES_BUDGET = 320;

Deno.test("tools/list fits the notes server's token budget and the text limits", async () => {
  await using c = await connect(createServer({ workspace: new Workspace({ cwd: Deno.cwd() }) }));
  const { tools } = await c.client.listTools();
  for (const tool of tools) {
    assert.ok(tool.description!.length <= 200, `${tool.name} description is too long`);
    for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {})) {
      const description = (property as { description?: string }).description ?? "";
      assert.ok(description.length <= 80, `${tool.name}.${name} description is too long`);
    }
  }
  const tokens = listTokens(tools);
  assert.ok(tokens <= NOTES_BUDGET, `tools/list costs ${tokens} tokens, over ${NOTES_BUDGET}`);
});
