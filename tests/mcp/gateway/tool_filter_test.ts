import assert from "node:assert/strict";
import { globMatches, toolAllowed } from "../../../mcp/gateway/tool_filter.ts";

Deno.test("globMatches: * and ? only; other characters are literal", () => {
  assert.ok(globMatches("list_*", "list_issues"));
  assert.ok(globMatches("*", "anything"));
  assert.ok(globMatches("get_?", "get_x"));
  assert.ok(!globMatches("get_?", "get_xy"));
  assert.ok(!globMatches("a.b", "axb"));
  assert.ok(globMatches("a.b", "a.b"));
  assert.ok(!globMatches("list", "list_issues"));
});

Deno.test("toolAllowed: empty allow shows all, deny wins over allow", () => {
  assert.ok(toolAllowed({ allow: [], deny: [] }, "x"));
  assert.ok(!toolAllowed({ allow: ["read_*"], deny: [] }, "write_file"));
  assert.ok(toolAllowed({ allow: ["read_*"], deny: [] }, "read_file"));
  assert.ok(!toolAllowed({ allow: ["read_*"], deny: ["*_file"] }, "read_file"));
  assert.ok(!toolAllowed({ allow: [], deny: ["delete_*"] }, "delete_repo"));
});
