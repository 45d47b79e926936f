import assert from "node:assert/strict";
import { editFixture } from "./fixture.ts";
import { cutLines } from "../../../mcp/edit/line_window.ts";

const OLD = "OLDTEXT_OLDTEXT_OLDTEXT_OLDTEXT_OLDTEXT_";
const NEW = "NEWTEXT_NEWTEXT_NEWTEXT_NEWTEXT_NEWTEXT_";
const MINIFIED = `var a=1;${"x".repeat(1_000_000)}${OLD}${"y".repeat(1_000_000)}\n`;

Deno.test("dry run on a 2 MB one-line file: a small diff whose lines are cut around the change", async () => {
  await using f = await editFixture({ "min.js": MINIFIED });
  const text = await f.edit("min.js", [{ old_text: OLD, new_text: NEW }], { dry_run: true });
  assert.ok(text.length < 2_000, `dry run returned ${text.length} characters`);
  const minus = text.split("\n").find((line) => line.startsWith("-") && !line.startsWith("---"));
  const plus = text.split("\n").find((line) => line.startsWith("+") && !line.startsWith("+++"));
  assert.match(minus ?? "", new RegExp(`^-\\(\\+[\\d,]+ chars\\) …x+${OLD}y+… \\(\\+[\\d,]+ chars\\)$`));
  assert.match(plus ?? "", new RegExp(`^\\+\\(\\+[\\d,]+ chars\\) …x+${NEW}y+… \\(\\+[\\d,]+ chars\\)$`));
  assert.equal(await f.read("min.js"), MINIFIED);
});

Deno.test("the numbered hunks of a long-line edit show the changed text, not the line start", async () => {
  await using f = await editFixture({ "min.js": MINIFIED });
  const text = await f.edit("min.js", [{ old_text: OLD, new_text: NEW }]);
  assert.ok(text.length < 1_000, `result has ${text.length} characters`);
  assert.match(text, new RegExp(`\\n- 1 \\| \\(\\+[\\d,]+ chars\\) …x+${OLD}y+… \\(\\+[\\d,]+ chars\\)\\n`));
  assert.match(
    text,
    new RegExp(`\\n\\+ 1 \\| \\(\\+[\\d,]+ chars\\) …x+${NEW}y+… \\(\\+[\\d,]+ chars\\)\\n`),
  );
});

Deno.test("cutLines: a removed/added pair is cut at the same place; other lines from their start", () => {
  const before = "a".repeat(100) + "OLD" + "b".repeat(100);
  const after = "a".repeat(100) + "NEW" + "b".repeat(100);
  const [context, removed, added] = cutLines([
    { mark: " ", text: "c".repeat(50) },
    { mark: "-", text: before },
    { mark: "+", text: after },
  ], 40);
  assert.equal(context, `${"c".repeat(40)}… (+10 chars)`);
  assert.equal(removed, `(+82 chars) …${"a".repeat(18)}OLD${"b".repeat(19)}… (+81 chars)`);
  assert.equal(added, `(+82 chars) …${"a".repeat(18)}NEW${"b".repeat(19)}… (+81 chars)`);
  assert.deepEqual(cutLines([{ mark: "-", text: "short" }, { mark: "+", text: "shorter" }], 40), [
    "short",
    "shorter",
  ]);
});

Deno.test("cutLines: never splits a surrogate pair; a lone surrogate (undecodable byte) is no pair", () => {
  const [cut] = cutLines([{ mark: "+", text: "😀".repeat(30) }], 9);
  assert.equal(cut, `${"😀".repeat(4)}… (+52 chars)`);
  const [lone] = cutLines([{ mark: "+", text: "\uDC80".repeat(20) }], 9);
  assert.equal(lone, `${"\uDC80".repeat(9)}… (+11 chars)`);
});
