import assert from "node:assert/strict";
import { textOf } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { fsClient, numberedLines } from "./_fixture.ts";
import { isWindows } from "../../../lib/platform/mod.ts";

Deno.test("fs_stat describes a text file: size, lines, mtime, mode", async () => {
  await using ws = await tempWorkspace({ "src/a.ts": numberedLines(42) });
  // Windows has no permission bits: Deno.chmod throws there and fs_stat reports mode null.
  if (!isWindows) await Deno.chmod(ws.join("src/a.ts"), 0o640);
  const mtime = new Date("2024-05-06T07:08:09.000Z");
  await Deno.utime(ws.join("src/a.ts"), mtime, mtime);
  await using c = await fsClient(ws.path);
  const result = await c.call("fs_stat", { path: "src/a.ts" });
  assert.deepEqual(result.structuredContent, {
    path: "src/a.ts",
    type: "file",
    size: (await Deno.stat(ws.join("src/a.ts"))).size,
    lines: 42,
    content: "text",
    mtime: "2024-05-06T07:08:09.000Z",
    mode: isWindows ? null : "640",
  });
  assert.deepEqual(JSON.parse(textOf(result)), result.structuredContent);
});

Deno.test("fs_stat of a folder counts its entries; of a binary names its type without counting lines", async () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]);
  await using ws = await tempWorkspace({ "d/x": "", "d/y": "", "d/z/": "", "pic.png": png });
  await using c = await fsClient(ws.path);
  const folder = (await c.call("fs_stat", { path: "d" })).structuredContent as Record<string, unknown>;
  assert.equal(folder.type, "folder");
  assert.equal(folder.entries, 3);
  const pic = (await c.call("fs_stat", { path: "pic.png" })).structuredContent as Record<string, unknown>;
  assert.equal(pic.content, "PNG image");
  assert.equal(pic.lines, undefined);
});

Deno.test("fs_stat skips the line count of text over the stat line limit", async () => {
  await using ws = await tempWorkspace({ "big.txt": numberedLines(1000) });
  await using c = await fsClient(ws.path, { statLineBytes: 100 });
  const stat = (await c.call("fs_stat", { path: "big.txt" })).structuredContent as Record<string, unknown>;
  assert.equal(stat.lines, undefined);
  assert.equal(stat.content, "text");
});

Deno.test(
  "fs_stat follows a symlink inside the workspace and reports its target",
  { ignore: isWindows },
  async () => {
    await using ws = await tempWorkspace({ "real.txt": "a\nb\n", "alias.txt": { symlink: "real.txt" } });
    await using c = await fsClient(ws.path);
    const stat = (await c.call("fs_stat", { path: "alias.txt" })).structuredContent as Record<
      string,
      unknown
    >;
    assert.equal(stat.path, "real.txt");
    assert.equal(stat.symlink, "real.txt");
    assert.equal(stat.lines, 2);
  },
);

Deno.test(
  "fs_stat errors: missing path with suggestions, escape through a symlink",
  { ignore: isWindows },
  async () => {
    await using outside = await tempWorkspace({ "secret": "s" });
    await using ws = await tempWorkspace({
      "config.json": "{}",
      "leak": { symlink: outside.join("secret") },
    });
    await using c = await fsClient(ws.path);
    const missing = await c.call("fs_stat", { path: "config.jsn" });
    assert.equal(missing.isError, true);
    assert.equal(missing.structuredContent, undefined);
    assert.equal(
      textOf(missing),
      'Error [not_found]: Cannot stat "config.jsn": no such file or folder; did you mean "config.json"?',
    );
    assert.deepEqual((await c.call("fs_stat", { path: "leak" }))._meta, { code: "outside_workspace" });
  },
);
