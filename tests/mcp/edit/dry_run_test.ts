/** A dry run names the hash of the file it previewed, so the real edit can be pinned to that version. */
import assert from "node:assert/strict";
import { sha256Hex } from "../../../lib/fs/sha256.ts";
import { editFixture, utf8 } from "./fixture.ts";

const EDITS = [{ old_text: "x = 1", new_text: "x = 2" }];

function previewedHash(text: string): string {
  const found = text.match(/^sha256 now: ([0-9a-f]{64}) \(for expected_sha256\)$/m);
  assert.ok(found, `no "sha256 now" line in: ${text}`);
  return found[1];
}

Deno.test("dry run → the file changes → the real edit with the previewed hash is a conflict, nothing written", async () => {
  await using f = await editFixture({ "a.py": "x = 1\ny = 1\n" });
  const hash = previewedHash(await f.edit("a.py", EDITS, { dry_run: true }));
  assert.equal(hash, await sha256Hex(utf8("x = 1\ny = 1\n")));
  await Deno.writeTextFile(f.join("a.py"), "x = 1\ny = 99\n");
  const failure = await f.fail("edit_file", { path: "a.py", edits: EDITS, expected_sha256: hash });
  assert.equal(failure.code, "conflict");
  assert.equal(failure.kind, "stale");
  assert.equal(await f.read("a.py"), "x = 1\ny = 99\n");
});

Deno.test("dry run → unchanged file → the real edit with the previewed hash applies", async () => {
  await using f = await editFixture({ "a.py": "x = 1\ny = 1\n" });
  const hash = previewedHash(await f.edit("a.py", EDITS, { dry_run: true }));
  await f.edit("a.py", EDITS, { expected_sha256: hash });
  assert.equal(await f.read("a.py"), "x = 2\ny = 1\n");
});

Deno.test("filling an empty file: the dry run pins the empty file", async () => {
  await using f = await editFixture({ "e.txt": "" });
  const hash = previewedHash(await f.edit("e.txt", [{ old_text: "", new_text: "hi\n" }], { dry_run: true }));
  assert.equal(hash, await sha256Hex(new Uint8Array()));
});
