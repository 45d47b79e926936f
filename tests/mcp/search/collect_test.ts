import assert from "node:assert/strict";
import { PageCollector, type PageOptions } from "../../../mcp/search/collect.ts";
import { comparePaths } from "../../../mcp/search/slice.ts";

const begin = (path: string) => JSON.stringify({ type: "begin", data: { path: { text: path } } });
const line = (type: "match" | "context", path: string, n: number, text: string) =>
  JSON.stringify({
    type,
    data: {
      path: { text: path },
      lines: { text: `${text}\n` },
      line_number: n,
      submatches: type === "match" ? [{ match: { text }, start: 0, end: text.length }] : [],
    },
  });
const end = (path: string, binary: number | null = null) =>
  JSON.stringify({ type: "end", data: { path: { text: path }, binary_offset: binary, stats: {} } });
const summary = (searches: number) =>
  JSON.stringify({ data: { stats: { searches }, elapsed_total: { secs: 0, nanos: 1 } }, type: "summary" });

function collect(lines: string[], options: Partial<PageOptions> = {}) {
  const collector = new PageCollector({
    mode: "lines",
    offset: 0,
    limit: 100,
    context: 0,
    countHorizon: 1_000,
    pageChars: 40_000,
    maxLineChars: 250,
    ...options,
  });
  let fed = 0;
  for (const l of lines) {
    fed++;
    if (!collector.feed(l)) break;
  }
  return { page: collector.page(), fed, overflowed: collector.overflowed };
}

Deno.test("a binary file's matches are dropped, counted, and do not use up the page", () => {
  const { page } = collect([
    begin("./bin"),
    ...Array.from({ length: 5 }, (_, i) => line("match", "./bin", i + 1, "x".repeat(200))),
    end("./bin", 3),
    begin("./a.txt"),
    line("match", "./a.txt", 1, "hit one"),
    line("match", "./a.txt", 2, "hit two"),
    end("./a.txt"),
    summary(2),
  ], { limit: 2, pageChars: 600 });
  assert.equal(page.binaryFiles, 1);
  assert.deepEqual(page.files.map((f) => [f.path, f.lines.map((l) => l.text)]), [["a.txt", [
    "hit one",
    "hit two",
  ]]]);
  assert.equal(page.units, 2);
  assert.equal(page.more, false);
  assert.equal(page.complete, true);
  assert.equal(page.searched, 2);
});

Deno.test("context pairs with shown matches only: skipped matches take their context with them", () => {
  const { page } = collect([
    begin("a"),
    line("context", "a", 1, "c1"),
    line("match", "a", 2, "m2"),
    line("context", "a", 3, "c3"),
    line("context", "a", 9, "c9"),
    line("match", "a", 10, "m10"),
    line("context", "a", 11, "c11"),
    end("a"),
  ], { offset: 1, limit: 1, context: 1 });
  assert.deepEqual(page.files[0].lines.map((l) => `${l.lineNumber}${l.kind}${l.text}`), [
    "9-c9",
    "10:m10",
    "11-c11",
  ]);
  assert.equal(page.shown, 1);
});

Deno.test("after-context stops at a match beyond the page", () => {
  const { page } = collect([
    begin("a"),
    line("match", "a", 1, "m1"),
    line("match", "a", 2, "m2"),
    line("context", "a", 3, "c3"),
    end("a"),
  ], { limit: 1, context: 2 });
  assert.deepEqual(page.files[0].lines.map((l) => `${l.lineNumber}${l.kind}${l.text}`), ["1:m1"]);
  assert.equal(page.more, true);
});

Deno.test("counting stops at the horizon and the totals become a lower bound", () => {
  const lines = [
    begin("a"),
    ...Array.from({ length: 50 }, (_, i) => line("match", "a", i + 1, "m")),
    end("a"),
  ];
  const { page, fed } = collect(lines, { limit: 5, countHorizon: 10 });
  assert.ok(fed < lines.length);
  assert.equal(page.complete, false);
  assert.equal(page.shown, 5);
  assert.equal(page.units, 16);
  assert.equal(page.more, true);
});

Deno.test("an unsorted first pass stops as soon as the page overflows", () => {
  const lines = [
    begin("a"),
    ...Array.from({ length: 50 }, (_, i) => line("match", "a", i + 1, "m")),
    end("a"),
  ];
  const { fed, overflowed } = collect(lines, { limit: 5, stopOnOverflow: true });
  assert.equal(overflowed, true);
  assert.equal(fed, 7);
});

Deno.test("files and count modes page over files", () => {
  const lines = ["a", "b", "c"].flatMap((p, i) => [
    begin(p),
    ...Array.from({ length: i + 1 }, (_, n) => line("match", p, n + 1, "m")),
    end(p),
  ]);
  const { page } = collect([...lines, summary(3)], { mode: "count", offset: 1, limit: 1 });
  assert.deepEqual(page.files.map((f) => [f.path, f.count]), [["b", 2]]);
  assert.equal(page.units, 3);
  assert.equal(page.matchedLines, 6);
  assert.equal(page.more, true);
});

Deno.test("comparePaths orders like ripgrep's --sort path: component by component", () => {
  const paths = ["a.txt", "a/b.txt", "a-b/c", "B", "a/a/z"];
  assert.deepEqual(paths.sort(comparePaths), ["B", "a/a/z", "a/b.txt", "a-b/c", "a.txt"]);
});
