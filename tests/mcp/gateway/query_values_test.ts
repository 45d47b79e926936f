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

// An IP, a host name or a region written into "point api.acme.io at 203.0.113.7" or "list my VMs in
// us-east-1" was split into words no tool uses (`203`, `acme`, `io`, `us`, `east`) and counted against
// the query as unknown words; a day or a time ("on Friday at 3pm") the same.
Deno.test("valueWords reads IPs, host names, regions, days and named arguments", () => {
  assert.deepEqual(valueWords("203.0.113.7"), ["ip"]);
  assert.deepEqual(valueWords("10.0.0.0/16"), ["ip"]);
  assert.deepEqual(valueWords("api.acme.io"), ["domain"]);
  assert.deepEqual(valueWords("localhost:3000"), ["url"]);
  assert.deepEqual(valueWords("us-east-1"), ["region"]);
  assert.deepEqual(valueWords("Friday"), []);
  assert.deepEqual(valueWords("3pm"), []);
  assert.deepEqual(valueWords("acme/web"), [], "a repository, a branch or a folder is an argument");
  assert.deepEqual(valueWords("config.yml"), ["file"], "a file name is still a file");
  assert.deepEqual(valueWords("ci/cd"), undefined, "short words either side stay words");
  assert.deepEqual(queryWords("point api.acme.io at 203.0.113.7"), ["point", "domain", "at", "ip"]);
});

Deno.test("queryWords puts a value's kind where the value was", () => {
  assert.deepEqual(queryWords("refund order 1042"), ["refund", "order"]);
  assert.deepEqual(queryWords("look up jane@acme.io in hubspot"), ["look", "up", "email", "in", "hubspot"]);
  assert.deepEqual(queryWords("how big is package.json"), ["how", "big", "is", "file"]);
});

// "book a 30 min sync", "attach 100GB of disk": the unit after a number is part of the argument.
Deno.test("queryWords drops the unit after a number, and only there", () => {
  assert.deepEqual(queryWords("book a 30 min sync"), ["book", "a", "sync"]);
  assert.deepEqual(queryWords("attach 100GB of disk"), ["attach", "of", "disk"]);
  assert.deepEqual(queryWords("log 3 hours on the ticket"), ["log", "on", "the", "ticket"]);
  assert.deepEqual(queryWords("log hours on the ticket"), ["log", "hours", "on", "the", "ticket"]);
});
