/**
 * The write guard's git rules on fixture folders (no git needed): `.git` entries are never created, folders
 * git takes for a repository keep their config and hooks (found through pointers, commondir, or their
 * shape), no write completes that shape, and `core.hooksPath` and included config files are protected.
 */
import assert from "node:assert/strict";
import { protectedWriteReason } from "../../../lib/sandbox/write_guard.ts";
import { gitProtectedPaths } from "../../../lib/sandbox/git_dirs.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

const BARE = { "HEAD": "ref: refs/heads/main\n", "objects/": "", "refs/": "" };
/** `files` moved under `folder/`. */
const under = (folder: string, files: Record<string, string>) =>
  Object.fromEntries(Object.entries(files).map(([path, content]) => [`${folder}/${path}`, content]));

async function reason(root: string, relative: string, options = {}): Promise<string> {
  return await protectedWriteReason(`${root}/${relative}`, [root], options) ?? "(allowed)";
}

Deno.test("git guard: no .git entry is created, file or folder, at any depth; existing ones stay usable", async () => {
  await using ws = await tempWorkspace({ "a/": "" });
  for (const path of [".git", "a/.git", "a/.git/HEAD", "a/b/.Git/objects/x", ".git./HEAD"]) {
    assert.match(
      await reason(ws.path, path),
      /^creating "[^"]*\.git" is refused \(git would take it for a repository\)$/i,
      path,
    );
  }
  await using repo = await tempWorkspace({ ".git/objects/": "", ".git/HEAD": "ref: refs/heads/main\n" });
  for (const path of [".git/objects/ab/cd", ".git/HEAD", ".git/refs/heads/x", ".git/index"]) {
    assert.equal(await reason(repo.path, path), "(allowed)", path);
  }
});

Deno.test("git guard: a folder a .git pointer or a commondir names keeps its config, hooks and commondir", async () => {
  await using ws = await tempWorkspace({
    ".git": "gitdir: meta/gd\n",
    "meta/gd/commondir": "../../common\n",
    "common/": "",
  });
  assert.match(
    await reason(ws.path, "meta/gd/config"),
    /^"meta\/gd" is a git repository folder \("\.git" leads git to it\): its "config" is protected/,
  );
  for (const path of ["meta/gd/hooks/pre-commit", "meta/gd/commondir", "meta/gd/config.worktree"]) {
    assert.match(await reason(ws.path, path), /"meta\/gd" is a git repository folder/, path);
  }
  assert.match(
    await reason(ws.path, "common/HOOKS/post-merge"),
    /^"common" is a git repository folder \("meta\/gd\/commondir" leads git to it\): its "hooks" is protected/,
  );
  assert.equal(await reason(ws.path, "meta/gd/description"), "(allowed)");
  assert.equal(await reason(ws.path, "common/info/attributes"), "(allowed)");
});

Deno.test("git guard: a bare repository's shape protects its config; no write completes the shape", async () => {
  await using ws = await tempWorkspace({ ...under("bare", BARE), "half/HEAD": "x", "half/objects/": "" });
  for (const path of ["bare/config", "bare/hooks/pre-receive", "bare/commondir", "bare/worktrees/w/config"]) {
    assert.match(
      await reason(ws.path, path),
      /^"bare" is a git repository folder \(HEAD, objects\/, refs\/\)/,
      path,
    );
  }
  assert.equal(await reason(ws.path, "bare/description"), "(allowed)");
  assert.equal(await reason(ws.path, "bare/refs/heads/x"), "(allowed)");
  assert.match(
    await reason(ws.path, "half/refs/heads/main"),
    /^it would make "half" a git repository folder \(HEAD, objects\/, refs\/\), whose config and hooks git obeys$/,
  );
  assert.match(await reason(ws.path, "half/commondir"), /it would make "half" a git repository folder/);
  // Short of the shape, a folder is ordinary: a project may well have `objects/` and `refs/` folders.
  assert.equal(await reason(ws.path, "half/config"), "(allowed)");
  assert.equal(await reason(ws.path, "src/objects/a.ts"), "(allowed)");
});

Deno.test("git guard: the shape at the workspace root counts too", async () => {
  await using ws = await tempWorkspace({ "objects/": "", "refs/": "" });
  assert.match(await reason(ws.path, "HEAD"), /^it would make "\." a git repository folder/);
  await using bare = await tempWorkspace(BARE);
  assert.match(await reason(bare.path, "config"), /^"\." is a git repository folder/);
});

Deno.test("git guard: core.hooksPath (quoted, relative to the work tree) and included config files", async () => {
  await using ws = await tempWorkspace({
    ".git/config": '[core]\n\thooksPath = "scripts/git hooks"\n[include]\n\tpath = ../.gitconfig\n',
    ".gitconfig": "[core]\n\thooksPath = more-hooks\n",
  });
  assert.match(
    await reason(ws.path, "scripts/git hooks/pre-commit"),
    /^"scripts\/git hooks" is git's hooks folder \(core\.hooksPath in "\.git\/config"\)$/,
  );
  assert.match(
    await reason(ws.path, ".gitconfig"),
    /^"\.gitconfig" is included by git's config \("\.git\/config"\), and git runs commands its config names$/,
  );
  // The included file's own settings count.
  assert.match(await reason(ws.path, "more-hooks/x"), /core\.hooksPath in "\.gitconfig"/);
  assert.equal(await reason(ws.path, "scripts/build.sh"), "(allowed)");
});

Deno.test("git guard: a workspace inside a repository obeys that repository's hooksPath", async () => {
  await using repo = await tempWorkspace({ ".git/config": "[core]\n\thooksPath = sub/hooks\n", "sub/": "" });
  assert.match(
    await reason(repo.join("sub"), "hooks/pre-commit"),
    /is git's hooks folder \(core\.hooksPath in "[^"]*\/\.git\/config"\)/,
  );
});

Deno.test("git guard: deleting a pointer file or a commondir is refused like rewriting it", async () => {
  await using ws = await tempWorkspace({ "sub/.git": "gitdir: ../x\n", ".git/commondir": "../c\n" });
  assert.match(
    await reason(ws.path, "sub/.git", { followLast: false }),
    /"sub\/\.git" is a git pointer file/,
  );
  assert.match(
    await reason(ws.path, ".git/commondir", { followLast: false }),
    /"\.git\/commondir" is protected/,
  );
});

Deno.test("gitProtectedPaths: what the shell sandbox should keep read-only beyond the names", async () => {
  await using ws = await tempWorkspace({
    ".git": "gitdir: meta/gd\n",
    "meta/gd/config": "[core]\n\thooksPath = tools/hooks\n[include]\n\tpath = ../../shared.gitconfig\n",
  });
  const paths = (await gitProtectedPaths(ws.path)).map((path) => path.slice(ws.path.length + 1)).sort();
  assert.deepEqual(paths, [
    ".git",
    "meta/gd/commondir",
    "meta/gd/config",
    "meta/gd/config.worktree",
    "meta/gd/hooks",
    "meta/gd/modules",
    "meta/gd/worktrees",
    "shared.gitconfig",
    "tools/hooks",
  ]);
});
