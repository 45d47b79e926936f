import assert from "node:assert/strict";
import { sniff } from "../../../mcp/fs/sniff.ts";

const bytes = (...values: number[]) => new Uint8Array(values);
const text = (s: string) => new TextEncoder().encode(s);

Deno.test("sniff names images, executables, archives and UTF-16 by their signatures", () => {
  assert.deepEqual(sniff(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)), {
    kind: "image",
    mimeType: "image/png",
    label: "PNG image",
  });
  assert.equal(sniff(text("RIFF\0\0\0\0WEBPVP8 ")).kind, "image");
  assert.deepEqual(sniff(bytes(0x7f, 0x45, 0x4c, 0x46, 2, 1)), { kind: "binary", label: "ELF executable" });
  assert.deepEqual(sniff(bytes(0x1f, 0x8b, 8, 0)), { kind: "binary", label: "gzip archive" });
  assert.deepEqual(sniff(bytes(0xff, 0xfe, 0x61, 0x00)), { kind: "binary", label: "UTF-16 (LE) text" });
  assert.deepEqual(sniff(bytes(0x61, 0x00, 0x62)), { kind: "binary", label: "binary data" });
});

Deno.test("sniff keeps text that merely starts like a two-byte signature, and notes a UTF-8 BOM", () => {
  assert.deepEqual(sniff(text("MZ is a fine name for a variable\n")), { kind: "text", bom: false });
  assert.deepEqual(sniff(text("BMW\n")), { kind: "text", bom: false });
  assert.deepEqual(sniff(text("\uFEFFhello")), { kind: "text", bom: true });
  assert.deepEqual(sniff(new Uint8Array()), { kind: "text", bom: false });
});
