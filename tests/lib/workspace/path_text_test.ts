import assert from "node:assert/strict";
import {
  decodeFileName,
  hasRawBytes,
  parseShownPath,
  pathFromArgument,
  showPath,
} from "../../../lib/workspace/path_text.ts";

Deno.test("showPath leaves plain names alone and quotes names with control characters or odd bytes", () => {
  for (const plain of ["src/a.ts", "é 😀.txt", String.raw`C:\x\y`, 'mid"quote', "."]) {
    assert.equal(showPath(plain), plain);
  }
  assert.equal(showPath("a\nb.txt"), String.raw`"a\nb.txt"`);
  assert.equal(showPath("d/x\ty\r\u0001\u007f"), String.raw`"d/x\ty\r\x01\x7f"`);
  assert.equal(showPath(`nm${String.fromCharCode(0xdcff)}.txt`), String.raw`"nm\xff.txt"`);
  assert.equal(showPath('"q".txt'), String.raw`"\"q\".txt"`);
  assert.equal(showPath("a\n\\😀"), String.raw`"a\n\\😀"`);
});

Deno.test("parseShownPath turns every shown form back into its name; plain arguments keep their meaning", () => {
  const names = [
    "a\nb.txt",
    "d/x\ty\r\u0001\u007f",
    `nm${String.fromCharCode(0xdcff)}.txt`,
    '"q".txt',
    "a\n\\😀",
  ];
  for (const name of names) assert.equal(parseShownPath(showPath(name)), name);
  assert.equal(pathFromArgument("src/a.ts"), "src/a.ts");
  assert.equal(pathFromArgument(String.raw`a\nb`), String.raw`a\nb`);
  // Not a well-formed quoted form: taken literally.
  for (const odd of ['"', '"a"b"', String.raw`"a\q"`, String.raw`"a\x4"`, String.raw`"a\"`]) {
    assert.equal(parseShownPath(odd), null, odd);
    assert.equal(pathFromArgument(odd), odd);
  }
  assert.equal(hasRawBytes(pathFromArgument(String.raw`"nm\xff.txt"`)), true);
  assert.equal(hasRawBytes("é 😀"), false);
});

Deno.test("decodeFileName keeps bytes that are not UTF-8 as U+DC80-U+DCFF", () => {
  assert.equal(decodeFileName(new TextEncoder().encode("é😀.txt")), "é😀.txt");
  const bytes = new Uint8Array([0x6e, 0x6d, 0xff, 0xc3, 0xa9, 0xe2, 0x82, 0x2e]);
  assert.equal(showPath(decodeFileName(bytes)), String.raw`"nm\xffé\xe2\x82."`);
});
