import assert from "node:assert/strict";
import { parseEvent, parseEvents, sniffType } from "../../../lib/ripgrep/json.ts";
import { locateRipgrep } from "../../../lib/ripgrep/locate.ts";
import { RipgrepRun } from "../../../lib/ripgrep/run.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

const b64 = (bytes: number[]) => btoa(String.fromCharCode(...bytes));

Deno.test("parseEvent reads a match with its line number and spans", () => {
  const line =
    '{"type":"match","data":{"path":{"text":"./a.txt"},"lines":{"text":"hello world\\n"},"line_number":3,"absolute_offset":0,"submatches":[{"match":{"text":"world"},"start":6,"end":11}]}}';
  assert.deepEqual(parseEvent(line), {
    type: "match",
    path: "./a.txt",
    text: "hello world\n",
    lineNumber: 3,
    spans: [[6, 11]],
  });
  assert.equal(sniffType(line), "match");
});

Deno.test("parseEvent converts UTF-8 byte offsets to string indices", () => {
  // "é" is 2 bytes in UTF-8 and "🦕" 4, but 1 and 2 UTF-16 units.
  const text = "é🦕 foo";
  const start = new TextEncoder().encode("é🦕 ").length;
  const line = JSON.stringify({
    type: "match",
    data: {
      path: { text: "a" },
      lines: { text },
      line_number: 1,
      submatches: [{ match: { text: "foo" }, start, end: start + 3 }],
    },
  });
  const event = parseEvent(line);
  assert.ok(event?.type === "match");
  const [s, e] = event.spans[0];
  assert.equal(text.slice(s, e), "foo");
});

Deno.test("parseEvent decodes base64 lines lossily and keeps the odd bytes of base64 paths", () => {
  // Latin-1 "caf\xe9 bar" is not valid UTF-8: ripgrep sends bytes.
  const bytes = [0x63, 0x61, 0x66, 0xe9, 0x20, 0x62, 0x61, 0x72, 0x0a];
  const line = JSON.stringify({
    type: "match",
    data: {
      path: { bytes: b64([0x78, 0xff]) },
      lines: { bytes: b64(bytes) },
      line_number: 2,
      submatches: [{ match: { text: "bar" }, start: 5, end: 8 }],
    },
  });
  const event = parseEvent(line);
  assert.ok(event?.type === "match");
  // A path keeps its odd byte (as U+DCFF, shown `"x\xff"`), so it is not mistaken for another name.
  assert.equal(event.path, "x\udcff");
  assert.equal(event.text, "caf\ufffd bar\n");
  assert.equal(event.text.slice(...event.spans[0]), "bar");
});

Deno.test("parseEvent reads end (binary offset, stats) and summary; junk is null", () => {
  const end = parseEvent(
    '{"type":"end","data":{"path":{"text":"b.bin"},"binary_offset":5,"stats":{"searches":1,"searches_with_match":1,"bytes_searched":9,"matched_lines":2,"matches":3}}}',
  );
  assert.deepEqual(end, {
    type: "end",
    path: "b.bin",
    binaryOffset: 5,
    stats: { searches: 1, searchesWithMatch: 1, matchedLines: 2, matches: 3, bytesSearched: 9 },
  });
  const summary =
    '{"data":{"elapsed_total":{"human":"0.5s","nanos":500000000,"secs":1},"stats":{"matched_lines":0,"matches":0,"searches":7,"searches_with_match":0,"bytes_searched":0}},"type":"summary"}';
  assert.equal(sniffType(summary), "summary");
  const parsed = parseEvent(summary);
  assert.ok(parsed?.type === "summary");
  assert.equal(parsed.stats.searches, 7);
  assert.equal(parsed.elapsedMs, 1500);
  assert.equal(parseEvent(""), null);
  assert.equal(parseEvent("not json"), null);
  assert.equal(parseEvent('{"type":"other","data":{}}'), null);
  assert.equal(sniffType("garbage"), null);
});

Deno.test("parseEvents streams a real rg --json run: begin, match, context, end, summary", async () => {
  const rg = await locateRipgrep();
  assert.ok(rg);
  await using ws = await tempWorkspace({ "a.txt": "one\ntwo\nthree\n" });
  const run = new RipgrepRun(rg, ["--json", "--context", "1", "two", "a.txt"], { cwd: ws.path });
  const types: string[] = [];
  for await (const event of parseEvents(run.lines())) {
    types.push(event.type);
    if (event.type === "match") assert.equal(event.text.slice(...event.spans[0]), "two");
  }
  assert.deepEqual(types, ["begin", "context", "match", "context", "end", "summary"]);
  assert.equal((await run.exit).code, 0);
});
