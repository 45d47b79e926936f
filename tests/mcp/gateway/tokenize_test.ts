import assert from "node:assert/strict";
import { identifierWords, plainTokens, queryWords, splitWords } from "../../../mcp/gateway/tokenize.ts";

Deno.test("splitWords splits camelCase, snake_case, kebab-case and dots, lowercased", () => {
  assert.deepEqual(splitWords("listIssues"), ["list", "issues"]);
  assert.deepEqual(splitWords("HTTPServer"), ["http", "server"]);
  assert.deepEqual(splitWords("get_pull_request"), ["get", "pull", "request"]);
  assert.deepEqual(splitWords("aws-s3.put_object"), ["aws", "s3", "put", "object"]);
  assert.deepEqual(splitWords("Run a read-only SQL query."), ["run", "a", "read", "only", "sql", "query"]);
});

Deno.test("identifierWords keeps the whole name beside its parts", () => {
  assert.deepEqual(identifierWords("browser_navigate_back"), [
    "browser",
    "navigate",
    "back",
    "browser_navigate_back",
  ]);
  assert.deepEqual(identifierWords("getPage"), ["get", "page", "getpage"]);
  assert.deepEqual(identifierWords("search"), ["search"]);
});

Deno.test("queryWords adds whole identifiers the agent typed, not ordinary words", () => {
  assert.deepEqual(queryWords("call list_issues now"), ["call", "list", "issues", "list_issues", "now"]);
  assert.deepEqual(queryWords("use getPage"), ["use", "get", "page", "getpage"]);
  assert.deepEqual(queryWords("  two   words "), ["two", "words"]);
});

Deno.test("plainTokens only lowercases and splits on non-alphanumerics", () => {
  assert.deepEqual(plainTokens("listIssues get_pull-Request"), ["listissues", "get", "pull", "request"]);
});
