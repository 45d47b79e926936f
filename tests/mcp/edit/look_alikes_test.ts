/**
 * The unicode tier folds look-alikes (quotes, dashes, spaces, invisible characters, composed/decomposed
 * letters, width variants, typographic ligatures) and never characters whose compatibility form means
 * something else (superscripts, circled digits, fractions, roman numerals, symbols).
 */
import assert from "node:assert/strict";
import { editFixture } from "./fixture.ts";

Deno.test("a superscript is not its digit: `r2` does not match `r²`; not_found names the character", async () => {
  await using f = await editFixture({ "area.py": "area = r²\n" });
  const failure = await f.fail("edit_file", {
    path: "area.py",
    edits: [{ old_text: "area = r2", new_text: "area = r2 * pi" }],
  });
  assert.equal(failure.code, "not_found");
  assert.equal(failure.kind, "no_match");
  assert.match(failure.text, /the file has "²" \(U\+00B2\) where old_text has "2"/);
  assert.match(failure.text, /mean something else/);
  assert.equal(await f.read("area.py"), "area = r²\n");
});

Deno.test("a circled digit is not its digit: `level = 1` does not match `level = ①`", async () => {
  await using f = await editFixture({ "l.txt": "level = ①\n" });
  const failure = await f.fail("edit_file", {
    path: "l.txt",
    edits: [{ old_text: "level = 1", new_text: "level = 2" }],
  });
  assert.equal(failure.kind, "no_match");
  assert.match(failure.text, /the file has "①" \(U\+2460\) where old_text has "1"/);
  assert.equal(await f.read("l.txt"), "level = ①\n");
});

Deno.test("other compatibility forms that change meaning never match", async () => {
  const cases: [string, string][] = [
    ["H₂O", "H2O"],
    ["x = ½", "x = 1/2"],
    ["chapter Ⅳ", "chapter IV"],
    ["Brand™ name", "BrandTM name"],
    ["n = ⑴", "n = (1)"],
    ["5 ㎏ bag", "5 kg bag"],
    ["x³ + y", "x3 + y"],
  ];
  await using f = await editFixture(Object.fromEntries(cases.map(([file], i) => [`c${i}.txt`, `${file}\n`])));
  for (const [i, [file, old]] of cases.entries()) {
    const failure = await f.fail("edit_file", {
      path: `c${i}.txt`,
      edits: [{ old_text: old, new_text: "z" }],
    });
    assert.equal(failure.kind, "no_match", `${file} vs ${old}`);
    assert.equal(await f.read(`c${i}.txt`), `${file}\n`);
  }
});

Deno.test("the listed look-alikes still match and the file's characters are kept", async () => {
  const cases: [string, string][] = [
    ["say “hi” it’s ‚ok‘", `say "hi" it's 'ok'`],
    ["a – b — c − d ‐ e", "a - b - c - d - e"],
    ["a\u00A0b\u202Fc\u2009d\u3000e", "a b c d e"],
    ["in\u200Bvis\u00ADi\u2060ble", "invisible"],
    ["cafe\u0301", "café"],
    ["café", "cafe\u0301"],
    ["ＡＢＣ（１）", "ABC(1)"],
    ["\uFB01ne", "fine"],
  ];
  await using f = await editFixture(
    Object.fromEntries(cases.map(([file], i) => [`c${i}.txt`, `${file} 1\n`])),
  );
  for (const [i, [file, old]] of cases.entries()) {
    const text = await f.edit(`c${i}.txt`, [{ old_text: `${old} 1`, new_text: `${old} 2` }]);
    assert.match(text, /edit 0 unicode/, file);
    assert.equal(await f.read(`c${i}.txt`), `${file} 2\n`, file);
  }
});
