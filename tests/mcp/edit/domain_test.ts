import assert from "node:assert/strict";
import { LineIndex, toLineView, toTextPosition } from "../../../mcp/edit/line_endings.ts";
import { normalize } from "../../../mcp/edit/normalize.ts";
import { FileViews, matchOld } from "../../../mcp/edit/match.ts";
import { applyMatch, commonPrefix, commonSuffix } from "../../../mcp/edit/apply.ts";
import { normalizeEditArguments } from "../../../mcp/edit/request.ts";
import { similarNames } from "../../../mcp/edit/suggest.ts";
import { type EditRequest, planEdits } from "../../../mcp/edit/plan.ts";
import { numberedHunks, unifiedDiff } from "../../../mcp/edit/hunk_text.ts";
import { applyPatch } from "diff";
import { utf8 } from "./fixture.ts";

Deno.test("line view: CRLF positions map back to whole CRLFs; endings are classified", () => {
  const lines = toLineView("a\r\nb\r\nc");
  assert.equal(lines.view, "a\nb\nc");
  assert.equal(lines.endings, "crlf");
  assert.equal(toTextPosition(lines, 1), 1);
  assert.equal(toTextPosition(lines, 2), 3);
  assert.equal(toTextPosition(lines, 4), 6);
  assert.equal(toLineView("a\rb\r").endings, "cr");
  assert.equal(toLineView("a\r\nb\n").endings, "mixed");
  assert.equal(toLineView("abc").endings, "none");
});

Deno.test("line index: lines, columns in code points, line text", () => {
  const index = new LineIndex("ab\n😀x\nlast");
  assert.equal(index.lineOf(0), 1);
  assert.equal(index.lineOf(3), 2);
  assert.equal(index.columnOf(5), 2);
  assert.equal(index.line(3), "last");
  assert.equal(index.count, 3);
});

Deno.test("normalize: whitespace tier maps stripped trailing blanks to empty output", () => {
  const view = normalize("ab  \ncd\t\n", "whitespace");
  assert.equal(view.text, "ab\ncd\n");
  assert.equal(view.map!.earliestSrc(2), 2);
  assert.equal(view.map!.latestSrc(2), 4);
});

Deno.test("normalize: unicode tier folds per cluster and refuses positions inside a folded cluster", () => {
  const view = normalize("\uFB01x “q”\u00A0", "unicode");
  assert.equal(view.text, 'fix "q"');
  assert.equal(view.map!.isOutBoundary(1), false);
  assert.equal(view.map!.isOutBoundary(2), true);
  assert.equal(normalize("plain ascii", "unicode").map, null);
});

Deno.test("match: overlapping candidates are all found; the EOF rule matches a final line", () => {
  const files = new FileViews("aaa\nlast");
  assert.equal(matchOld(files, "aa")!.candidates.length, 2);
  const eof = matchOld(files, "last\n")!;
  assert.equal(eof.eof, true);
  assert.equal(eof.tier, "whitespace");
  assert.deepEqual(eof.candidates.map((c) => [c.start, c.end]), [[4, 8]]);
});

Deno.test("apply: the common prefix and suffix come from the file in a fuzzy match", () => {
  const view = "say “hi” now";
  const files = new FileViews(view);
  const match = matchOld(files, `say "hi" now`)!;
  const replacement = applyMatch({
    view,
    file: files.get(match.tier),
    candidate: match.candidates[0],
    old: match.old,
    oldView: match.oldView,
    replacement: `say "hi" then`,
  });
  assert.deepEqual([replacement.from, replacement.to, replacement.text], [9, 12, "then"]);
});

Deno.test("apply: common prefix/suffix never split a surrogate pair", () => {
  assert.equal(commonPrefix("😀", "😁"), 0);
  assert.equal(commonSuffix("a😀", "b😀", 2), 2);
  assert.equal(commonSuffix("\uD83D\uDE00", "\uD83E\uDE00", 2), 0);
});

Deno.test("plan: bytes in, exact bytes out, with per-edit ranges", () => {
  const plan = planEdits(utf8("x\r\ny\r\n"), [{ old_text: "y", new_text: "z\nw" }], "f");
  assert.equal(new TextDecoder().decode(plan.bytes), "x\r\nz\r\nw\r\n");
  assert.deepEqual(plan.edits[0].ranges, [{
    old_start_line: 2,
    old_end_line: 2,
    new_start_line: 2,
    new_end_line: 3,
  }]);
});

Deno.test("request: repairs top-level edits, JSON strings and camelCase keys", () => {
  assert.deepEqual(normalizeEditArguments({ file_path: "a", oldText: "x", newText: "y" }), {
    path: "a",
    edits: [{ old_text: "x", new_text: "y" }],
  });
  assert.deepEqual(normalizeEditArguments({ path: "a", edits: '[{"old_string":"x","new_string":"y"}]' }), {
    path: "a",
    edits: [{ old_text: "x", new_text: "y" }],
  });
  assert.deepEqual(normalizeEditArguments({ path: "a", dryRun: true, edits: [] }), {
    path: "a",
    dry_run: true,
    edits: [],
  });
});

Deno.test("suggest: same stem, case and typos rank first", () => {
  assert.deepEqual(similarNames("app.ts", ["app.tsx", "App.ts", "zzz.md", "apq.ts"]), [
    "App.ts",
    "app.tsx",
    "apq.ts",
  ]);
  assert.deepEqual(similarNames("readme.md", ["main.ts"]), []);
});

Deno.test("unified diffs apply: the patch turns the old view into the new one", () => {
  const cases: [string, EditRequest[]][] = [
    ["a\nb\nc\n", [{ old_text: "b\n", new_text: "x\nb\n" }]],
    ["a\nb\nc\n", [{ old_text: "a", new_text: "A" }, { old_text: "c", new_text: "C" }]],
    ["first\nlast", [{ old_text: "last\n", new_text: "final\n" }]],
    ["keep\ndrop", [{ old_text: "drop", new_text: "" }]],
    ["x\n", [{ old_text: "x\n", new_text: "x" }]],
    ["abcdef\n", [{ old_text: "abc", new_text: "ABC" }, { old_text: "def", new_text: "D\nEF" }]],
    [Array.from({ length: 40 }, (_, i) => `l${i}`).join("\n") + "\n", [
      { old_text: "l3\n", new_text: "" },
      { old_text: "l9", new_text: "nine" },
      { old_text: "l30\nl31", new_text: "thirty" },
    ]],
    ["v\nv\nv\n", [{ old_text: "v", new_text: "w\nw", replace_all: true }]],
  ];
  for (const [content, edits] of cases) {
    const plan = planEdits(utf8(content), edits, "f");
    const patch = unifiedDiff(plan.before, plan.after, plan.spans, "f");
    assert.equal(
      applyPatch(plan.before.text, patch),
      plan.after.text,
      JSON.stringify({ content, edits, patch }),
    );
  }
});

Deno.test("hunks stay linear: 10,000 replacements on consecutive lines are capped, counted and fast to build", () => {
  const content = Array.from({ length: 10_000 }, (_, i) => `value_${i} = options\n`).join("");
  const plan = planEdits(utf8(content), [{ old_text: "options", new_text: "opts", replace_all: true }], "f");
  const hunks = numberedHunks(plan.before, plan.after, plan.spans);
  assert.equal(hunks.added, 10_000);
  assert.equal(hunks.removed, 10_000);
  assert.match(hunks.text, /… 19,970 more changed lines$/);
});
