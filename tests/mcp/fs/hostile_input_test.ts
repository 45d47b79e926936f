/** Issue 11 item 20: hostile paths and files give a reasoned error or the right answer, never `internal`. */
import assert from "node:assert/strict";
import { textOf } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { footerOf, fsClient, pageLines } from "./_fixture.ts";
import { connectSearch } from "../search/_connect.ts";
import { isWindows } from "../../../lib/platform/mod.ts";

Deno.test(
  "fs and search: a symlink loop is an invalid_argument naming the loop",
  { ignore: isWindows },
  async () => {
    await using ws = await tempWorkspace({ "a": { symlink: "b" }, "b": { symlink: "a" }, "ok.txt": "x\n" });
    await using fs = await fsClient(ws.path);
    await using search = await connectSearch(ws.path);
    const calls: Array<[typeof fs, string, Record<string, unknown>]> = [
      [fs, "fs_read", { path: "a" }],
      [fs, "fs_list", { path: "a" }],
      [fs, "fs_stat", { path: "a" }],
      [search, "search_grep", { pattern: "x", path: "a" }],
      [search, "search_glob", { pattern: "*", path: "a" }],
    ];
    for (const [client, tool, args] of calls) {
      const result = await client.call(tool, args);
      assert.equal(result.isError, true, tool);
      assert.match(textOf(result), /^Error \[invalid_argument\]: Cannot use "a": a symlink loop/, tool);
    }
  },
);

Deno.test("fs and search: an over-long name or path is an invalid_argument saying so", async () => {
  await using ws = await tempWorkspace({ "ok.txt": "x\n" });
  await using fs = await fsClient(ws.path);
  await using search = await connectSearch(ws.path);
  const longName = "n".repeat(300);
  const longPath = `${"d".repeat(200)}/`.repeat(25) + "f";
  for (const path of [longName, longPath]) {
    for (
      const [client, tool, args] of [
        [fs, "fs_read", { path }],
        [fs, "fs_list", { path }],
        [fs, "fs_stat", { path }],
        [search, "search_grep", { pattern: "x", path }],
        [search, "search_glob", { pattern: "*", path }],
      ] as const
    ) {
      const text = textOf(await client.call(tool, args));
      assert.match(text, /^Error \[invalid_argument\]: .*the path is too long/, `${tool} ${path.length}`);
      // The message quotes the path shortened, not 5 KB of it.
      assert.ok(text.length < 500, `${tool}: ${text.length} characters`);
    }
  }
});

Deno.test("search: a pattern or glob too large for ripgrep is an invalid_argument", async () => {
  await using ws = await tempWorkspace({ "a.txt": "x\n" });
  await using search = await connectSearch(ws.path);
  const bigRegex = textOf(await search.call("search_grep", { pattern: "\\w{50}".repeat(2000) }));
  assert.match(bigRegex, /^Error \[invalid_argument\]: Cannot search for .*size limit/s);
  const bigGlob = textOf(await search.call("search_grep", { pattern: "x", glob: "*".repeat(100_000) }));
  assert.match(bigGlob, /^Error \[invalid_argument\]: .*too large/s);
});

Deno.test("fs_read and fs_stat number the lines of a CR-only file as the edit server does", async () => {
  await using ws = await tempWorkspace({ "cr.txt": "one\rtwo\r\rfour", "mixed.txt": "a\rb\nc\n" });
  await using fs = await fsClient(ws.path);
  const text = await fs.text("fs_read", { path: "cr.txt" });
  assert.match(text.split("\n")[0], / · 4 lines · CR · no final newline · /);
  assert.deepEqual(pageLines(text), [[1, "one"], [2, "two"], [3, ""], [4, "four"]]);
  assert.equal((await fs.call("fs_stat", { path: "cr.txt" })).structuredContent?.lines, 4);
  // With an LF anywhere, a lone CR is not a line break (the edit server's rule too).
  assert.match(await fs.text("fs_read", { path: "mixed.txt" }), / · 2 lines · LF · /);
});

Deno.test("fs_read counts only the shown lines in its `long lines cut` note", async () => {
  const line = "x".repeat(50);
  await using ws = await tempWorkspace({ "long.txt": `${line}\n`.repeat(10) });
  // Room for three cut lines (22 characters + 8 of numbering each) after the header allowance.
  await using fs = await fsClient(ws.path, { lineChars: 10, readChars: 300 + 100 });
  const first = await fs.text("fs_read", { path: "long.txt" });
  assert.equal(pageLines(first).length, 3);
  assert.match(footerOf(first), /; 3 long lines cut at 10 chars; next: offset=4\]$/);
  const last = await fs.text("fs_read", { path: "long.txt", offset: -5 });
  assert.equal(pageLines(last).length, 3);
  assert.match(footerOf(last), /; 3 long lines cut at 10 chars/);
});

Deno.test("fs_read refuses 21 paths sent as a JSON string, as it refuses the array", async () => {
  await using ws = await tempWorkspace({ "a.txt": "a\n" });
  await using fs = await fsClient(ws.path);
  const paths = Array.from({ length: 21 }, () => "a.txt");
  const asArray = textOf(await fs.call("fs_read", { path: paths }));
  const asString = textOf(await fs.call("fs_read", { path: JSON.stringify(paths) }));
  assert.match(asArray, /^Error \[invalid_argument\]: .*<=20 items/);
  assert.equal(asString, asArray);
  assert.match(await fs.text("fs_read", { path: JSON.stringify(paths.slice(0, 2)) }), /^a\.txt · /);
});
