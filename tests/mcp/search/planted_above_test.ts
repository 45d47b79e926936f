/**
 * Ignore files and a `.git` another user planted in a shared folder above the workspace (like /tmp) must not
 * hide the workspace's files: search_grep and search_glob still see them, with or without a repository of
 * the workspace's own, also when a subfolder is searched alone.
 */
import assert from "node:assert/strict";
import { connect, type Connection } from "../../_support/connect.ts";
import { sharedFolder } from "../../_support/shared_folder.ts";
import { isWindows } from "../../../lib/platform/mod.ts";
import { requireRipgrep } from "../../../lib/ripgrep/locate.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { createServer } from "../../../mcp/search/server.ts";
import { connectSearch } from "./_connect.ts";
import { plantAbove, VICTIM } from "./_planted_fixture.ts";

async function grepFiles(c: Connection, args: Record<string, unknown> = {}): Promise<string[]> {
  const text = await c.text("search_grep", { pattern: "needle", mode: "files", ...args });
  return text.startsWith("No matches") ? [text] : text.split("\n\n")[0].split("\n");
}

async function globFiles(c: Connection, args: Record<string, unknown> = {}): Promise<string[]> {
  const text = await c.text("search_glob", { pattern: "*", sort: "path", ...args });
  return text.startsWith("No files") ? [text] : text.split("\n\n")[0].split("\n");
}

for (
  const [label, git, own] of [
    ["no repository", false, {}],
    ["a planted .git", true, {}],
    ["a repository of its own", true, { ".git/HEAD": "ref: refs/heads/main\n" }],
  ] as const
) {
  Deno.test({
    name: `search: ignore files planted above a workspace (${label}) hide nothing (F6)`,
    ignore: isWindows,
    async fn() {
      await using box = await sharedFolder({ ...VICTIM, ...own });
      await plantAbove(box, { git });
      await using c = await connectSearch(box.workspace);
      assert.deepEqual(await grepFiles(c), ["a.ts", "src/c.ts"]);
      assert.deepEqual(await globFiles(c), ["a.ts", "src/c.ts"]);
      // A subfolder searched alone: the workspace's .gitignore above it still applies, the planted ones not.
      assert.deepEqual(await grepFiles(c, { path: "src" }), ["src/c.ts"]);
      assert.deepEqual(await globFiles(c, { path: "src" }), ["src/c.ts"]);
    },
  });
}

Deno.test({
  name: "search: with two roots, one a repository, ignore files planted above them hide nothing",
  ignore: isWindows,
  async fn() {
    await using box = await sharedFolder({ ...VICTIM, ".git/HEAD": "ref: refs/heads/main\n" });
    await plantAbove(box, { git: false });
    const other = `${box.shared}/other`;
    await Deno.mkdir(other, { mode: 0o700 });
    await Deno.writeTextFile(`${other}/e.ts`, "needle\n");
    const workspace = new Workspace({ cwd: box.workspace, workspaceEnv: `${box.workspace}:${other}` });
    await using c = await connect(createServer({ workspace, ripgrep: requireRipgrep, timeoutMs: 30_000 }));
    assert.deepEqual(await grepFiles(c), ["a.ts", "src/c.ts", `${other}/e.ts`]);
  },
});
