import assert from "node:assert/strict";
import {
  decodeEscaped,
  decodeFile,
  encodeText,
  hasLoneSurrogate,
  unsupportedEncoding,
} from "../../../mcp/edit/decode.ts";
import { bytesOf } from "./fixture.ts";

Deno.test("decode: valid UTF-8 round-trips, the BOM is set aside and restored", () => {
  const bytes = bytesOf([0xef, 0xbb, 0xbf], "héllo 😀\n");
  const decoded = decodeFile(bytes, "f");
  assert.equal(decoded.text, "héllo 😀\n");
  assert.equal(decoded.bom, true);
  assert.deepEqual(encodeText(decoded.text, { bom: true, escaped: false }), bytes);
});

Deno.test("decode: every invalid byte becomes U+DC80+byte and encodes back to itself", () => {
  const bytes = bytesOf("a", [0xe9], "b", [0xc3], "c", [0xed, 0xa0, 0x80], [0xf8], [0x80], "ü");
  const decoded = decodeEscaped(bytes);
  assert.equal(decoded.text, "a\uDCE9b\uDCC3c\uDCED\uDCA0\uDC80\uDCF8\uDC80ü");
  assert.equal(decoded.invalidBytes, 7);
  assert.equal(decoded.firstInvalidIndex, 1);
  assert.deepEqual(encodeText(decoded.text, { bom: false, escaped: true }), bytes);
});

Deno.test("decode: a real surrogate pair next to escaped bytes survives encoding", () => {
  const bytes = bytesOf([0xff], "😀", [0xfe]);
  const decoded = decodeFile(bytes, "f");
  assert.deepEqual(encodeText(decoded.text, { bom: false, escaped: true }), bytes);
});

Deno.test("decode: UTF-16/32 BOMs are named, and checked before the NUL test", () => {
  assert.equal(unsupportedEncoding(Uint8Array.from([0xff, 0xfe, 0x61, 0])), "UTF-16 LE");
  assert.equal(unsupportedEncoding(Uint8Array.from([0xfe, 0xff, 0, 0x61])), "UTF-16 BE");
  assert.equal(unsupportedEncoding(Uint8Array.from([0xff, 0xfe, 0, 0])), "UTF-32 LE");
  assert.equal(unsupportedEncoding(Uint8Array.from([0, 0, 0xfe, 0xff])), "UTF-32 BE");
  assert.throws(() => decodeFile(Uint8Array.from([0xfe, 0xff, 0, 0x61]), "f"), /UTF-16 BE/);
  assert.throws(() => decodeFile(Uint8Array.from([0x61, 0, 0x62]), "f"), /NUL byte at offset 1/);
});

Deno.test("hasLoneSurrogate: pairs are fine, halves are not", () => {
  assert.equal(hasLoneSurrogate("😀 ok"), false);
  assert.equal(hasLoneSurrogate("a\uD83D"), true);
  assert.equal(hasLoneSurrogate("\uDE00b"), true);
});
