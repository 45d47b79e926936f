/**
 * Odd file names: a newline in a name must not split it into two entries, and a name that is not UTF-8 must
 * not pass for another. Such names are shown quoted and escaped (lib/workspace/path_text.ts) and every path
 * argument takes that form back. POSIX only: Windows forbids control characters in names.
 */
import assert from "node:assert/strict";
import { connect, textOf } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { connectSearch, GIT } from "./_connect.ts";
import { fsClient } from "../fs/_fixture.ts";
import { createServer as createEditServer } from "../../../mcp/edit/server.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { isWindows } from "../../../lib/platform/mod.ts";

async function oddWorkspace() {
  const ws = await tempWorkspace({
    ...GIT,
    "a\nb.txt": "needle\n",
    "plain.txt": "needle\n",
    "d/x\ty.txt": "needle\n",
  });
  // A name with the byte 0xff, which Deno's string paths cannot spell: written by python3.
  const made = await new Deno.Command("python3", {
    args: [
      "-c",
      "import sys; open(sys.argv[1].encode() + b'/nm\\xff.txt', 'wb').write(b'needle\\n')",
      ws.path,
    ],
  }).output();
  assert.ok(made.success, "python3 could not create the non-UTF-8 name");
  return ws;
}

Deno.test({
  name: "search_glob, search_grep and fs_list show each odd name once, quoted and escaped",
  ignore: isWindows,
  async fn() {
    await using ws = await oddWorkspace();
    await using s = await connectSearch(ws.path);
    await using f = await fsClient(ws.path);
    const shown = [String.raw`"a\nb.txt"`, String.raw`"d/x\ty.txt"`, String.raw`"nm\xff.txt"`, "plain.txt"];
    assert.equal(
      await s.text("search_glob", { pattern: "*.txt", sort: "path" }),
      [...shown, "", "4 files"].join("\n"),
    );
    assert.equal(
      await s.text("search_grep", { pattern: "needle" }),
      [...shown.map((path) => `${path}\n1:needle\n`), "4 matching lines in 4 files"].join("\n"),
    );
    assert.equal(
      await s.text("search_grep", { pattern: "needle", mode: "count" }),
      [...shown.map((path) => `${path}:1`), "", "4 matching lines in 4 files"].join("\n"),
    );
    const list = await f.text("fs_list", {});
    assert.match(list, /\n {2}"a\\nb\.txt" {2}7B\n/);
    assert.match(list, /\n {4}"x\\ty\.txt" {2}7B\n/);
    assert.match(list, /\n {2}"nm\\xff\.txt"\n/);
    assert.match(list, /shown of 4 files in all\]$/);
  },
});

Deno.test({
  name: "a shown name is accepted back by search, fs and edit; a name that is not UTF-8 is refused plainly",
  ignore: isWindows,
  async fn() {
    await using ws = await oddWorkspace();
    await using s = await connectSearch(ws.path);
    await using f = await fsClient(ws.path);
    await using e = await connect(createEditServer({ workspace: new Workspace({ cwd: ws.path }) }));
    const name = String.raw`"a\nb.txt"`;
    assert.match(
      await f.text("fs_read", { path: name }),
      /^"a\\nb\.txt" · 7B · 1 line[\s\S]*\n {5}1\tneedle\n/,
    );
    assert.equal(JSON.parse(await f.text("fs_stat", { path: name })).size, 7);
    assert.equal(
      await s.text("search_grep", { pattern: "needle", path: String.raw`"d/x\ty.txt"` }),
      String.raw`"d/x\ty.txt"` + "\n1:needle\n\n1 matching line in 1 file",
    );
    const edited = await e.call("edit_file", {
      path: name,
      edits: [{ old_text: "needle", new_text: "pin" }],
    });
    assert.equal(edited.isError, undefined, textOf(edited));
    assert.equal(await Deno.readTextFile(ws.join("a\nb.txt")), "pin\n");
    // A plain argument keeps its meaning: `a\nb.txt` unquoted is a name with a backslash, which does not exist.
    assert.match(await f.text("fs_read", { path: String.raw`a\nb.txt` }), /^Error \[not_found\]/);
    const refused = await f.call("fs_read", { path: String.raw`"nm\xff.txt"` });
    assert.equal(refused.isError, true);
    assert.match(
      textOf(refused),
      /^Error \[invalid_argument\]: Cannot use "nm\\xff\.txt": its name is not valid UTF-8/,
    );
  },
});
