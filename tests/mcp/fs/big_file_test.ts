import assert from "node:assert/strict";
import { tempWorkspace } from "../../_support/workspace.ts";
import { spawnStdio } from "../../_support/stdio.ts";
import { textOf } from "../../_support/connect.ts";
import type { CallToolResult } from "../../../lib/mcp/sdk.ts";
import { os } from "../../../lib/platform/mod.ts";
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

/** Peak resident memory of a process (Linux `VmHWM`), in bytes. */
async function peakRss(pid: number): Promise<number> {
  // Through `cat`: Deno asks for --allow-all to read /proc directly, the test task grants --allow-run.
  const out = await new Deno.Command("cat", { args: [`/proc/${pid}/status`], stdout: "piped" }).output();
  const status = new TextDecoder().decode(out.stdout);
  return Number(status.match(/VmHWM:\s+(\d+) kB/)![1]) * 1024;
}

Deno.test({
  name: "fs_read at the start and near the end of a 96 MB file keeps the server's memory bounded",
  // Peak RSS is read from /proc; the streaming code is the same on every OS.
  ignore: os !== "linux",
  async fn() {
    await using ws = await tempWorkspace();
    let lines = 0;
    {
      using file = await Deno.open(ws.join("huge.log"), { write: true, create: true });
      const block = new TextEncoder().encode(numberedLines(100_000, "x".repeat(40) + " "));
      for (let written = 0; written < 96 * 1024 * 1024; written += block.length) {
        await file.write(block);
        lines += 100_000;
      }
    }
    const size = (await Deno.stat(ws.join("huge.log"))).size;
    // A real server process, so that its memory is its own (test files share this process).
    await using c = await spawnStdio("fs", { cwd: ws.path });
    const read = async (args: Record<string, unknown>) =>
      textOf(await c.client.callTool({ name: "fs_read", arguments: args }) as CallToolResult);
    await read({ path: "huge.log", limit: 1 });
    const before = await peakRss(c.pid!);
    const head = await read({ path: "huge.log", limit: 2 });
    assert.deepEqual(pageLines(head), [[1, `${"x".repeat(40)} 1`], [2, `${"x".repeat(40)} 2`]]);
    const tail = await read({ path: "huge.log", offset: -3 });
    assert.match(tail, /sha256 n\/a \(file over 64M\)/);
    assert.equal(footerOf(tail), `[lines ${lines - 2}-${lines} of ${lines.toLocaleString("en-US")}]`);
    assert.equal(pageLines(tail).at(-1)![1], `${"x".repeat(40)} 100000`);
    const grown = await peakRss(c.pid!) - before;
    assert.ok(grown < size / 3, `peak RSS grew by ${grown} bytes reading a ${size}-byte file`);
  },
});
