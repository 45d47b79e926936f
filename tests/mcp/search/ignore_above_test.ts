/**
 * A workspace that is not in a git repository: ignore files in folders above it (a dotfiles-style
 * `~/.gitignore` of `*`) do not apply; its own ignore files do, also to a subfolder searched alone.
 */
import assert from "node:assert/strict";
import type { Connection } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { connectSearch } from "./_connect.ts";
import { TREE } from "./_above_fixture.ts";

async function grepFiles(c: Connection, args: Record<string, unknown>): Promise<string[]> {
  const text = await c.text("search_grep", { pattern: "needle", mode: "files", ...args });
  return text.startsWith("No matches") ? [] : text.split("\n\n")[0].split("\n");
}

async function listed(c: Connection, args: Record<string, unknown>): Promise<string[]> {
  const text = await c.text("search_glob", { pattern: "*", sort: "path", ...args });
  return text.startsWith("No files") ? [] : text.split("\n\n")[0].split("\n");
}

const ALL = ["a.ts", "src/c.ts", "src/deep/f.ts", "src/top.txt"];
const SRC = ["src/c.ts", "src/deep/f.ts", "src/top.txt"];

Deno.test("search_grep and search_glob: ignore files above a workspace outside git are not applied", async () => {
  await using parent = await tempWorkspace(TREE);
  await using c = await connectSearch(parent.join("ws"));
  assert.deepEqual(await grepFiles(c, {}), ALL);
  assert.deepEqual(await listed(c, {}), ALL);
  // A subfolder searched alone keeps the workspace's own rules from the folders above it, no others.
  assert.deepEqual(await grepFiles(c, { path: "src" }), SRC);
  assert.deepEqual(await listed(c, { path: "src" }), SRC);
  assert.deepEqual(await grepFiles(c, { path: "src/deep" }), ["src/deep/f.ts"]);
  assert.deepEqual(await listed(c, { path: "src/deep", pattern: "*.ts" }), ["src/deep/f.ts"]);
  // An ignored folder named as path is searched, and its files still meet the rules above it.
  assert.deepEqual(await grepFiles(c, { path: "src/gen" }), ["src/gen/e.ts"]);
  assert.deepEqual(await grepFiles(c, { no_ignore: true, path: "src" }), [
    "src/c.ts",
    "src/d.log",
    "src/deep/f.ts",
    "src/deep/skip.ts",
    "src/gen/e.ts",
    "src/top.txt",
  ]);
});
