import assert from "node:assert/strict";
import {
  INDEXED_DESCRIPTION_CHARS,
  INDEXED_INSTRUCTIONS_CHARS,
  INDEXED_NAME_CHARS,
  INDEXED_PARAM_DESCRIPTION_CHARS,
  INDEXED_PARAMS,
  toolText,
} from "../../../mcp/gateway/tool_text.ts";
import { buildIndex, searchIndex } from "../../../mcp/gateway/rank.ts";
import type { CatalogTool } from "../../../mcp/gateway/types.ts";

/** A tool as a hostile server may list it, every field far too long (capitals: tokenize_test.ts). */
function hugeTool(): CatalogTool {
  const properties = Object.fromEntries(
    Array.from({ length: 100_000 }, (_, i) => [`p${i}`, { description: "d".repeat(1_000) }]),
  );
  return {
    qualifiedName: "big__tool",
    server: "big",
    name: "n".repeat(100_000),
    title: "t".repeat(100_000),
    description: `${"d ".repeat(500_000)}zebra`,
    serverInstructions: "i".repeat(100_000),
    inputSchema: { type: "object", properties },
  };
}

Deno.test("toolText: each field of a tool is indexed up to its bound, whatever the server lists", () => {
  const text = toolText(hugeTool());
  assert.equal(text.name.length, INDEXED_NAME_CHARS);
  assert.equal(text.title.length, INDEXED_NAME_CHARS);
  assert.equal(text.description.length, INDEXED_DESCRIPTION_CHARS);
  assert.equal(text.serverInstructions.length, INDEXED_INSTRUCTIONS_CHARS);
  assert.equal(text.paramNames.length, INDEXED_PARAMS);
  assert.equal(text.paramDescriptions.join("").length, INDEXED_PARAM_DESCRIPTION_CHARS);
});

Deno.test("toolText: a cut never ends in half a surrogate pair", () => {
  const description = `${"a".repeat(INDEXED_DESCRIPTION_CHARS - 1)}😀`;
  const text = toolText({ qualifiedName: "s__t", server: "s", name: "t", description, inputSchema: {} });
  assert.equal(text.description, "a".repeat(INDEXED_DESCRIPTION_CHARS - 1));
});

Deno.test("searchIndex: a word past the indexed start of a description is not indexed", () => {
  const index = buildIndex([hugeTool(), {
    qualifiedName: "zoo__feed",
    server: "zoo",
    name: "feed",
    description: "Feed the zebra",
    inputSchema: {},
  }]);
  assert.deepEqual(searchIndex(index, "zebra").map((hit) => hit.tool.qualifiedName), ["zoo__feed"]);
});
