import assert from "node:assert/strict";
import { valueWords } from "../../../mcp/gateway/query_values.ts";
import { queryWords } from "../../../mcp/gateway/tokenize.ts";

Deno.test("valueWords reads a value the agent wrote in as its kind", () => {
  assert.deepEqual(valueWords("1042"), []);
  assert.deepEqual(valueWords("#42"), []);
  assert.deepEqual(valueWords("20%"), []);
  assert.deepEqual(valueWords("jane@acme.io"), ["email"]);
  assert.deepEqual(valueWords("https://example.com/a?b=c"), ["url"]);
  assert.deepEqual(valueWords("+15551234567"), ["phone"]);
  assert.deepEqual(valueWords("@alice"), ["user"]);
  assert.deepEqual(valueWords("#general"), ["channel"]);
  assert.deepEqual(valueWords("package.json"), ["file"]);
  assert.deepEqual(valueWords("src/schema.sql"), ["file", "sql"]);
  assert.deepEqual(valueWords("./build/"), ["path"]);
  assert.deepEqual(valueWords("(report.pdf),"), ["file", "pdf"], "surrounding punctuation");
});

Deno.test("valueWords leaves words, identifiers and long chunks alone", () => {
  for (
    const chunk of [
      "issues",
      "list_issues",
      "acme/web",
      "s3",
      "k8s",
      "p99",
      "fra1",
      "x".repeat(300) + ".json",
    ]
  ) {
    assert.equal(valueWords(chunk), undefined, chunk);
  }
});

Deno.test("queryWords puts a value's kind where the value was", () => {
  assert.deepEqual(queryWords("refund order 1042"), ["refund", "order"]);
  assert.deepEqual(queryWords("look up jane@acme.io in hubspot"), ["look", "up", "email", "in", "hubspot"]);
  assert.deepEqual(queryWords("how big is package.json"), ["how", "big", "is", "file"]);
});
