import assert from "node:assert/strict";
import { capResult, MAX_BLOCKS, MEDIA_BUDGET_CHARS } from "../../../mcp/gateway/result_cap.ts";
import type { CallToolResult } from "../../../lib/mcp/sdk.ts";

const text = (value: string) => ({ type: "text" as const, text: value });
const last = (result: CallToolResult) => {
  const block = result.content.at(-1);
  return block?.type === "text" ? block.text : "";
};

Deno.test("capResult: a result within budget keeps its protocol fields and loses keys MCP does not know", () => {
  const result = { content: [text("hi")], structuredContent: { a: 1 }, isError: true, _meta: { code: "x" } };
  assert.deepEqual(capResult({ ...result, junk: "j" } as CallToolResult), result);
});

Deno.test("capResult: blocks share one text budget; past it, blocks are dropped and counted", () => {
  const result = capResult({ content: Array.from({ length: 50 }, () => text("x".repeat(100))) }, 1_000);
  const kept = result.content.slice(0, -1);
  assert.ok(kept.length < 10, `${kept.length} blocks kept`);
  assert.match(
    last(result),
    /^\[gateway: cut \d+ of 50 content blocks \([\d,]+ characters\); a result holds 1,000/,
  );
});

Deno.test("capResult: at most MAX_BLOCKS blocks, even empty ones", () => {
  const result = capResult({ content: Array.from({ length: MAX_BLOCKS + 100 }, () => text("")) });
  assert.equal(result.content.length, MAX_BLOCKS + 1);
  assert.match(last(result), /^\[gateway: cut 100 of 600 content blocks; a result/);
});

Deno.test("capResult: images share one media budget; an embedded text resource is cut like text", () => {
  const image = { type: "image" as const, mimeType: "image/png", data: "A".repeat(MEDIA_BUDGET_CHARS * 0.6) };
  const resource = { type: "resource" as const, resource: { uri: "file:///a", text: "r".repeat(5_000) } };
  const result = capResult({ content: [image, image, resource] }, 2_000);
  assert.deepEqual(result.content.map((block) => block.type), ["image", "resource", "text"]);
  const cut = result.content[1] as { resource: { text: string } };
  assert.ok(cut.resource.text.length < 2_000);
  assert.match(cut.resource.text, /bytes \/ 0 lines cut/);
  assert.match(last(result), /^\[gateway: cut 1 of 3 content blocks: an image \(image\/png, 2\.9M\);/);
});

Deno.test("capResult: a structuredContent or _meta over budget is dropped with a note", () => {
  const result = capResult({
    content: [text("short")],
    structuredContent: { rows: "r".repeat(3_000) },
    _meta: { junk: "m".repeat(10_000) },
  }, 2_000);
  assert.equal(result.structuredContent, undefined);
  assert.equal(result._meta, undefined);
  assert.deepEqual(result.content.map((block) => block.type === "text" ? block.text : ""), [
    "short",
    "[gateway: structuredContent over 2,000 characters dropped; the text above is its form]",
    "[gateway: _meta over 8,192 characters dropped]",
  ]);
});
