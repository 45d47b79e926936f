import assert from "node:assert/strict";
import { identifierWords, plainTokens, queryWords, splitWords } from "../../../mcp/gateway/tokenize.ts";
import { evalFinishes, moduleUrl } from "../../_support/finishes.ts";

Deno.test("splitWords splits camelCase, snake_case, kebab-case and dots, lowercased", () => {
  assert.deepEqual(splitWords("listIssues"), ["list", "issues"]);
  assert.deepEqual(splitWords("HTTPServer"), ["http", "server"]);
  assert.deepEqual(splitWords("get_pull_request"), ["get", "pull", "request"]);
  assert.deepEqual(splitWords("aws-s3.put_object"), ["aws", "s3", "put", "object"]);
  assert.deepEqual(splitWords("Run a read-only SQL query."), ["run", "a", "read", "only", "sql", "query"]);
});

// Issue 23: "PRs" was split like camelCase into `p`, `rs`, so "open PRs" never reached a pull-request tool.
Deno.test("splitWords keeps an acronym's plural whole: PRs, VMs, DMs, IDs, URLs", () => {
  assert.deepEqual(splitWords("show me open PRs on acme/api"), [
    "show",
    "me",
    "open",
    "prs",
    "on",
    "acme",
    "api",
  ]);
  assert.deepEqual(splitWords("VMs DMs IDs URLs APIs"), ["vms", "dms", "ids", "urls", "apis"]);
  assert.deepEqual(splitWords("listPRs getIDsForUser"), ["list", "prs", "get", "ids", "for", "user"]);
  assert.deepEqual(
    splitWords("HTTPServer PDFsigner"),
    ["http", "server", "pd", "fsigner"],
    "a word, not a plural",
  );
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

/** splitWords as it was written with two regular expressions (quadratic on a long run of capitals). */
function splitWordsByRegExp(text: string): string[] {
  // The second split spares an acronym's plural (`PRs`): a capital, then an `s` that ends the word.
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z](?:[a-rt-z]|s(?=[a-z])))/g, "$1 $2");
  return spaced.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 0);
}

Deno.test("splitWords splits every short text as the regular expressions it replaced did", () => {
  const alphabet = [
    "A",
    "B",
    "Z",
    "a",
    "b",
    "z",
    "s",
    "0",
    "9",
    " ",
    "_",
    "-",
    ".",
    "É",
    "é",
    "İ",
    "Σ",
    "\u0301",
    "😀",
  ];
  let seed = 1;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  for (let round = 0; round < 20_000; round++) {
    const text = Array.from({ length: Math.floor(next() * 12) }, () => alphabet[Math.floor(next() * 19)])
      .join("");
    assert.deepEqual(splitWords(text), splitWordsByRegExp(text), JSON.stringify(text));
  }
});

// The finding: 1 MB of capitals in a downstream description took over 200 s (20k: 2.2 s, 200k: 69 s), the
// event loop blocked all along. Here the split runs in a child killed after 20 s (evalFinishes): the old
// code could not finish in that time, the linear one takes well under a second even on a loaded machine.
Deno.test("splitWords and queryWords finish on 1 MB of capitals", async () => {
  const tokenize = moduleUrl("mcp/gateway/tokenize.ts");
  const run = await evalFinishes(`
    import { queryWords, splitWords } from ${JSON.stringify(tokenize)};
    const capitals = "D".repeat(1_000_000);
    const counts = [splitWords(capitals), queryWords(capitals + " list"), splitWords("ABCd".repeat(250_000))];
    console.log(counts.map((words) => words.length).join(" "));
  `);
  assert.ok(run.finished, "splitting 1 MB of capitals did not finish in 20 s");
  assert.ok(run.success);
  assert.equal(run.stdout.trim(), "1 2 500000");
});
