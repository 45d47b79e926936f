import assert from "node:assert/strict";
import { tempWorkspace } from "../../_support/workspace.ts";
import { footerOf, fsClient, numberedLines, pageLines } from "./_fixture.ts";

Deno.test("fs_read of a file over the full-scan size reads only what the page needs and learns as it goes", async () => {
  await using ws = await tempWorkspace({ "big.log": numberedLines(100_000) });
  await using c = await fsClient(ws.path, { fullScanBytes: 64 * 1024 });
  const head = await c.text("fs_read", { path: "big.log", limit: 3 });
  assert.match(head.split("\n")[0], /^big\.log · 1\.0M · LF · sha256 n\/a \(file over 64K\)$/);
  assert.deepEqual(pageLines(head), [[1, "line 1"], [2, "line 2"], [3, "line 3"]]);
  assert.equal(footerOf(head), "[lines 1-3 of ? (not counted); next: offset=4; last lines: offset=-3]");

  const tail = await c.text("fs_read", { path: "big.log", offset: -2 });
  assert.deepEqual(pageLines(tail), [[99_999, "line 99999"], [100_000, "line 100000"]]);
  assert.equal(footerOf(tail), "[lines 99999-100000 of 100,000]");

  // The scan to the end indexed the file: the count is known now and a page deep inside starts nearby.
  const middle = await c.text("fs_read", { path: "big.log", offset: 54_321, limit: 2 });
  assert.match(middle.split("\n")[0], / · 100,000 lines · /);
  assert.deepEqual(pageLines(middle), [[54_321, "line 54321"], [54_322, "line 54322"]]);
  assert.equal(footerOf(middle), "[lines 54321-54322 of 100,000; next: offset=54323]");

  // A changed file drops its index.
  await Deno.writeTextFile(ws.join("big.log"), "line 100001\n", { append: true });
  const after = await c.text("fs_read", { path: "big.log", offset: 54_321, limit: 1 });
  assert.match(footerOf(after), /of \? \(not counted\)/);
  assert.deepEqual(pageLines(after), [[54_321, "line 54321"]]);
});

Deno.test("fs_read near the end of a 96 MB file keeps memory bounded", async () => {
  await using ws = await tempWorkspace();
  const path = ws.join("huge.log");
  let lines = 0;
  {
    using file = await Deno.open(path, { write: true, create: true });
    const block = new TextEncoder().encode(numberedLines(100_000, "x".repeat(40) + " "));
    for (let written = 0; written < 96 * 1024 * 1024; written += block.length) {
      await file.write(block);
      lines += 100_000;
    }
  }
  const size = (await Deno.stat(path)).size;
  await using c = await fsClient(ws.path);
  const before = Deno.memoryUsage().rss;
  const text = await c.text("fs_read", { path: "huge.log", offset: -3 });
  const grown = Deno.memoryUsage().rss - before;
  assert.match(text, /sha256 n\/a \(file over 64M\)/);
  assert.equal(footerOf(text), `[lines ${lines - 2}-${lines} of ${lines.toLocaleString("en-US")}]`);
  assert.equal(pageLines(text).at(-1)![1], `${"x".repeat(40)} 100000`);
  assert.ok(grown < size / 4, `RSS grew by ${grown} bytes reading a ${size}-byte file`);
});
