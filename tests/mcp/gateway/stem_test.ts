import assert from "node:assert/strict";
import { stem } from "../../../mcp/gateway/stem.ts";

Deno.test("stem makes word forms an agent mixes up meet", () => {
  const pairs = [
    ["issues", "issue"],
    ["listing", "list"],
    ["deleted", "delete"],
    ["deployment", "deploy"],
    ["queries", "query"],
    ["running", "run"],
    ["stopped", "stop"],
    ["creation", "create"],
    ["branches", "branch"],
    ["repositories", "repository"],
    ["vms", "vm"],
    ["prs", "pr"],
    ["ids", "id"],
    ["urls", "url"],
    ["dms", "dm"],
    ["apis", "api"],
    ["triggered", "trigger"],
    ["filtered", "filter"],
    ["configuration", "configure"],
    ["notifications", "notify"],
    ["organization", "organize"],
    ["subscription", "subscribe"],
    ["verification", "verify"],
  ];
  for (const [a, b] of pairs) assert.equal(stem(a), stem(b), `${a} / ${b}`);
});

Deno.test("stem leaves short words, doubled letters that belong, and non-words alone", () => {
  assert.equal(stem("pull"), stem("pulled"));
  assert.equal(stem("pull"), "pull");
  assert.equal(stem("status"), "status");
  assert.equal(stem("process"), "process");
  assert.equal(stem("string"), "string");
  assert.equal(stem("s3"), "s3");
  assert.equal(stem("list_issues"), "list_issues");
  assert.equal(stem("user"), "user");
  // Irregular and British forms meet their base ("who sent it", "cancelled subscriptions", "organisation").
  for (
    const [a, b] of [
      ["sent", "send"],
      ["broken", "break"],
      ["frozen", "freeze"],
      ["written", "write"],
      ["indices", "index"],
      ["cancelled", "cancel"],
      ["labelled", "labeled"],
      ["organisation", "organization"],
      ["authorised", "authorize"],
      ["analyse", "analyze"],
    ]
  ) assert.equal(stem(a), stem(b), `${a} / ${b}`);
  assert.equal(stem("raise"), stem("raised"), "every form of a short -ise word stays as it is");
  // "prod" stands for "production", which must not meet a shop's "products".
  assert.notEqual(stem("production"), stem("products"));
});
