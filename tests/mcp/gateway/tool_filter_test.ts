import assert from "node:assert/strict";
import { globMatches, toolDescription, toolVisible } from "../../../mcp/gateway/tool_filter.ts";

Deno.test("tool filter: * matches any run, ? one character, the rest literally, over the whole name", () => {
  assert.ok(globMatches("list_*", "list_issues"));
  assert.ok(globMatches("list_*", "list_"));
  assert.ok(globMatches("get_?", "get_a"));
  assert.ok(!globMatches("get_?", "get_ab"));
  assert.ok(!globMatches("list", "list_issues"), "anchored at both ends");
  assert.ok(globMatches("a.b+c(d)[e]", "a.b+c(d)[e]"));
  assert.ok(!globMatches("a.b", "axb"), "a dot is literal");
  assert.ok(!globMatches("List_*", "list_issues"), "case matters");
  assert.ok(globMatches("?", "😀"), "? is one character, not one UTF-16 unit");
});

Deno.test("tool filter: shown when allow is empty or matches, and no deny matches; deny wins", () => {
  const config = (allow: string[], deny: string[]) => ({ tools: { allow, deny } });
  assert.ok(toolVisible(config([], []), "anything"));
  assert.ok(toolVisible(config(["list_*"], []), "list_issues"));
  assert.ok(!toolVisible(config(["list_*"], []), "create_issue"));
  assert.ok(!toolVisible(config([], ["delete_*"]), "delete_repo"));
  assert.ok(!toolVisible(config(["*"], ["delete_*"]), "delete_repo"));
  assert.ok(toolVisible(config(["*"], ["delete_*"]), "get_repo"));
});

Deno.test("tool filter: a description override replaces the server's own, even with an empty string", () => {
  const config = { descriptions: { search_code: "Search code by keyword", quiet: "" } };
  assert.equal(
    toolDescription(config, { name: "search_code", description: "long..." }),
    "Search code by keyword",
  );
  assert.equal(toolDescription(config, { name: "quiet", description: "own" }), "");
  assert.equal(toolDescription(config, { name: "other", description: "own" }), "own");
  assert.equal(toolDescription(config, { name: "other" }), undefined);
  assert.equal(toolDescription(config, { name: "toString", description: "own" }), "own", "no prototype keys");
});
