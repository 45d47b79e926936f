import assert from "node:assert/strict";
import { countFileLines, countLines, crOnlyFile, scanLines, type ScanOptions } from "../../../mcp/fs/scan.ts";
import { CHECKPOINT_LINES, checkpointBefore, newLineIndex } from "../../../mcp/fs/line_index.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

const TRICKY = "\uFEFFfirst\r\nsecond\n\r\n" + "é".repeat(30) + "\r\n" + "x".repeat(25) + "\nlast";

async function scanFile(path: string, options: Partial<ScanOptions>) {
  using file = await Deno.open(path, { read: true });
  return await scanLines(file, { offset: 1, limit: 100, maxChars: 100_000, maxLineChars: 20, ...options });
}

Deno.test("scanLines gives the same lines, counts and hash whatever the chunk size", async () => {
  await using ws = await tempWorkspace({ "t.txt": TRICKY });
  const reference = await scanFile(ws.join("t.txt"), { toEnd: true, hash: true });
  assert.deepEqual(reference.lines.map((l) => l.text), [
    "first",
    "second",
    "",
    `${"é".repeat(20)}…(+10 chars)`,
    `${"x".repeat(20)}…(+5 chars)`,
    "last",
  ]);
  assert.equal(reference.totalLines, 6);
  assert.deepEqual(reference.endings, { lf: 2, crlf: 3, cr: true });
  assert.equal(reference.finalNewline, false);
  for (let chunkSize = 1; chunkSize <= 24; chunkSize++) {
    const scan = await scanFile(ws.join("t.txt"), { toEnd: true, hash: true, chunkSize });
    assert.deepEqual(scan, reference, `chunk size ${chunkSize}`);
  }
});

Deno.test("scanLines stops after the page unless asked to read on", async () => {
  await using ws = await tempWorkspace({ "t.txt": "a\nb\nc\nd\n" });
  const page = await scanFile(ws.join("t.txt"), { offset: 2, limit: 2 });
  assert.deepEqual(page.lines, [{ number: 2, text: "b" }, { number: 3, text: "c" }]);
  assert.equal(page.stop, "limit");
  assert.equal(page.more, true);
  assert.equal(page.totalLines, undefined);
  const last = await scanFile(ws.join("t.txt"), { offset: 3, limit: 2 });
  assert.equal(last.more, false);
  assert.equal(last.totalLines, 4);
});

Deno.test("scanLines records checkpoints that later scans can start from, with and without SIMD", async () => {
  const lines = Array.from({ length: CHECKPOINT_LINES * 3 + 10 }, (_, i) => `n${i + 1}\n`).join("");
  await using ws = await tempWorkspace({ "t.txt": lines });
  for (const simd of [true, false]) {
    for (const chunkSize of [64, 4096]) {
      const index = newLineIndex({ size: 0, mtimeMs: 0, ino: null });
      const first = await scanFile(ws.join("t.txt"), {
        offset: 1,
        limit: 1,
        toEnd: true,
        index,
        simd,
        chunkSize,
      });
      assert.equal(first.totalLines, CHECKPOINT_LINES * 3 + 10);
      // One checkpoint at least every 1,024 lines plus one read chunk's worth.
      assert.ok(index.checkpoints.length >= 3, `${index.checkpoints.length} checkpoints`);
      for (const wanted of [1, 2, CHECKPOINT_LINES * 2 + 5, CHECKPOINT_LINES * 3 + 10]) {
        const start = checkpointBefore(index, wanted);
        assert.ok(start.line <= wanted && wanted - start.line < 2 * CHECKPOINT_LINES);
        const page = await scanFile(ws.join("t.txt"), { offset: wanted, limit: 1, start, simd, chunkSize });
        assert.deepEqual(
          page.lines,
          [{ number: wanted, text: `n${wanted}` }],
          `line ${wanted}, simd ${simd}`,
        );
      }
    }
  }
});

Deno.test("scanLines counts the same with the SIMD counter and the indexOf loop", async () => {
  await using ws = await tempWorkspace({ "t.txt": TRICKY.repeat(50) + "\n".repeat(40) + "tail" });
  for (let chunkSize = 16; chunkSize <= 160; chunkSize += 9) {
    const simd = await scanFile(ws.join("t.txt"), {
      offset: 120,
      limit: 3,
      toEnd: true,
      hash: true,
      chunkSize,
    });
    const plain = await scanFile(ws.join("t.txt"), {
      offset: 120,
      limit: 3,
      toEnd: true,
      hash: true,
      chunkSize,
      simd: false,
    });
    assert.deepEqual(simd, plain, `chunk size ${chunkSize}`);
    assert.equal(simd.totalLines, 50 * 5 + 40 + 1);
  }
});

Deno.test("scanLines counts the cut characters exactly when the byte cap splits a character", async () => {
  await using ws = await tempWorkspace({ "t.txt": `x${"é".repeat(5000)}\n` });
  for (const chunkSize of [7, 4096, 65536]) {
    const scan = await scanFile(ws.join("t.txt"), { maxLineChars: 2000, chunkSize });
    assert.equal(scan.lines[0].text, `x${"é".repeat(1999)}…(+3001 chars)`, `chunk size ${chunkSize}`);
  }
});

Deno.test("countLines on a whole file in memory agrees with scanLines to the end", async () => {
  const samples = ["", "a", "a\n", "a\nb", "\n\n", "a\r\nb\r\n", "a\rb\r", "a\rb", "\r", "a\r\nb\rc", TRICKY];
  for (const [i, text] of samples.entries()) {
    await using ws = await tempWorkspace({ [`t${i}.txt`]: text });
    const bytes = await Deno.readFile(ws.join(`t${i}.txt`));
    using file = await Deno.open(ws.join(`t${i}.txt`), { read: true });
    const scanned = await countFileLines(file, await crOnlyFile(file, bytes));
    assert.equal(countLines(bytes), scanned, JSON.stringify(text));
  }
});
