import assert from "node:assert/strict";
import { findRepoRoot } from "../../../mcp/notes/repo_root.ts";
import { ToolError } from "../../../lib/mcp/errors.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

Deno.test("the nearest folder holding a .git folder wins, from however deep", async () => {
  await using ws = await tempWorkspace({ "repo/.git/": "", "repo/a/b/c/": "", "repo/inner/.git/": "" });
  assert.equal(await findRepoRoot(ws.join("repo/a/b/c")), ws.join("repo"));
  assert.equal(await findRepoRoot(ws.join("repo")), ws.join("repo"));
  assert.equal(await findRepoRoot(ws.join("repo/inner")), ws.join("repo/inner"));
});

Deno.test("a .git file (worktree, submodule) marks a repo root too", async () => {
  await using ws = await tempWorkspace({
    "wt/.git": "gitdir: /elsewhere/.git/worktrees/wt\n",
    "wt/src/": "",
  });
  assert.equal(await findRepoRoot(ws.join("wt/src")), ws.join("wt"));
});

Deno.test("without git anywhere the workspace root itself is the root", async () => {
  await using ws = await tempWorkspace({ "plain/sub/": "" });
  // The temp folder's ancestors hold no .git on a test machine; a home boundary makes that certain.
  assert.equal(await findRepoRoot(ws.join("plain/sub"), { homes: [ws.path] }), ws.join("plain/sub"));
});

Deno.test("the walk stops below the home folder: a dotfiles repo in ~ is not every project's root", async () => {
  await using ws = await tempWorkspace({ "home/.git/": "", "home/project/src/": "" });
  const home = ws.join("home");
  assert.equal(
    await findRepoRoot(ws.join("home/project/src"), { homes: [home] }),
    ws.join("home/project/src"),
  );
});

Deno.test("the home folder and the filesystem root are never a notes root", async () => {
  await using ws = await tempWorkspace({ "home/.git/": "" });
  const home = ws.join("home");
  await assert.rejects(
    findRepoRoot(home, { homes: [home] }),
    (error) =>
      error instanceof ToolError && error.code === "unavailable" && /home folder/.test(error.message),
  );
  const fsRoot = Deno.cwd().match(/^[A-Za-z]:\\|^\//)![0];
  await assert.rejects(
    findRepoRoot(fsRoot),
    (error) => error instanceof ToolError && /filesystem root/.test(error.message),
  );
});
