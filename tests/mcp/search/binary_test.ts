/** A huge binary or sparse file beside a small tree: ripgrep's own binary detection skips it at its first NUL. */
import assert from "node:assert/strict";
import { tempWorkspace } from "../../_support/workspace.ts";
import { connectSearch, GIT } from "./_connect.ts";
import { isWindows } from "../../../lib/platform/mod.ts";

/** A 100 GB sparse file: all NUL bytes, no disk used. Read to its end it would take minutes. */
async function sparse(path: string): Promise<void> {
  await using file = await Deno.open(path, { write: true, create: true });
  await file.truncate(100 * 1024 ** 3);
}

Deno.test({
  name: "search_grep finds the match beside a 100 GB sparse file, in every mode, without a timeout",
  // NTFS files are not sparse unless marked so: truncate would allocate the 100 GB.
  ignore: isWindows,
  fn: async () => {
    await using ws = await tempWorkspace({ "a.ts": "const needle = 1;\n" });
    await sparse(ws.join("disk.img"));
    // Short enough that reading the sparse file (the old --binary run) fails every call.
    await using c = await connectSearch(ws.path, { timeoutMs: 5_000 });
    const expected = {
      lines: "a.ts\n1:const needle = 1;\n\n1 matching line in 1 file",
      files: "a.ts\n\n1 file",
      count: "a.ts:1\n\n1 matching line in 1 file",
    };
    for (const [mode, text] of Object.entries(expected)) {
      assert.equal(await c.text("search_grep", { pattern: "needle", mode }), text, mode);
    }
    assert.equal(
      await c.text("search_grep", { pattern: "zzz" }),
      "No matches for /zzz/ in . (2 files searched)",
    );
  },
});

Deno.test("search_grep skips a binary file in a folder, and searches one named as path", async () => {
  await using ws = await tempWorkspace({
    ...GIT,
    "a.txt": "needle\n",
    "img.bin": new Uint8Array([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0, 1, 2, 0x0a]),
  });
  await using c = await connectSearch(ws.path);
  assert.equal(
    await c.text("search_grep", { pattern: "needle" }),
    "a.txt\n1:needle\n\n1 matching line in 1 file",
  );
  // Named, it is searched (ripgrep's rule for explicit files): the match is known, its bytes not shown.
  assert.equal(
    await c.text("search_grep", { pattern: "needle", path: "img.bin" }),
    "No matches for /needle/ in img.bin (1 files searched)\n1 binary file matched (skipped)",
  );
});
