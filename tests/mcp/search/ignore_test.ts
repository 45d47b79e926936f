/** Issue 11 items 1 and 2: globs only narrow the ignore-aware set; ignore rules stop at the repository root. */
import assert from "node:assert/strict";
import { type Connection, textOf } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { connectSearch } from "./_connect.ts";
import { fsClient } from "../fs/_fixture.ts";

/** A repository whose .git holds what `git init` writes, with every kind of ignore file. */
const REPO = {
  ".git/HEAD": "ref: refs/heads/main\n",
  ".git/config": "[core]\n\tbare = false\nconst\n",
  ".git/objects/ab/cdef0123": "const",
  ".git/hooks/pre-commit.sample": "const x = 1\n",
  ".git/info/exclude": "excluded.txt\n",
  ".gitignore": "dist/\n*.log\n",
  ".ignore": "by-ignore.txt\n",
  ".rgignore": "by-rgignore.txt\n",
  "dist/bundle.js": "const bundle\n",
  "debug.log": "const log\n",
  "by-ignore.txt": "const\n",
  "by-rgignore.txt": "const\n",
  "excluded.txt": "const\n",
  "src/a.ts": "const a\n",
};

async function listed(c: Connection, args: Record<string, unknown>): Promise<string[]> {
  const text = await c.text("search_glob", { sort: "path", ...args });
  return text.startsWith("No files") ? [] : text.split("\n\n")[0].split("\n");
}

async function grepFiles(c: Connection, args: Record<string, unknown>): Promise<string[]> {
  const text = await c.text("search_grep", { mode: "files", ...args });
  return text.startsWith("No matches") ? [] : text.split("\n\n")[0].split("\n");
}

Deno.test("search_glob: a catch-all glob narrows the ignore-aware set and never lists .git", async () => {
  await using ws = await tempWorkspace(REPO);
  await using c = await connectSearch(ws.path);
  for (const pattern of ["**/*", "*", "**"]) {
    assert.deepEqual(await listed(c, { pattern }), ["src/a.ts"], pattern);
  }
  assert.deepEqual(await listed(c, { pattern: "*.log" }), []);
  assert.deepEqual(await listed(c, { pattern: "*.txt" }), []);
  assert.deepEqual(await listed(c, { pattern: ["*", "!src/**"] }), []);
  assert.deepEqual(await listed(c, { pattern: "**/*", hidden: true }), [
    ".gitignore",
    ".ignore",
    ".rgignore",
    "src/a.ts",
  ]);
  // Only no_ignore widens the set, and .git stays out even then.
  assert.deepEqual(await listed(c, { pattern: "*", no_ignore: true, hidden: true }), [
    ".gitignore",
    ".ignore",
    ".rgignore",
    "by-ignore.txt",
    "by-rgignore.txt",
    "debug.log",
    "dist/bundle.js",
    "excluded.txt",
    "src/a.ts",
  ]);
  // Asked by path, .git is listed.
  assert.deepEqual(await listed(c, { pattern: "*", path: ".git/info" }), [".git/info/exclude"]);
});

Deno.test("search_grep: a glob narrows the ignore-aware set and never searches .git", async () => {
  await using ws = await tempWorkspace(REPO);
  await using c = await connectSearch(ws.path);
  for (const glob of ["*", "**/*", "**", ["*.ts", "*.js", "*.log", "*.txt", "*.sample", "config"]]) {
    assert.deepEqual(await grepFiles(c, { pattern: "const", glob }), ["src/a.ts"], String(glob));
  }
  assert.deepEqual(await grepFiles(c, { pattern: "const", glob: "*", hidden: true }), ["src/a.ts"]);
  assert.deepEqual(await grepFiles(c, { pattern: "const", glob: "*.log", no_ignore: true }), ["debug.log"]);
  assert.deepEqual(await grepFiles(c, { pattern: "const", path: ".git/config" }), [".git/config"]);
});

/** `par/.gitignore` ignores every file; `par/repo` is a repository of its own. */
const NESTED = {
  ".gitignore": "*\n!*/\n",
  "repo/.git/HEAD": "ref: refs/heads/main\n",
  "repo/.gitignore": "b.txt\n",
  "repo/a.txt": "needle\n",
  "repo/sub/b.txt": "needle\n",
  "repo/sub/c.txt": "needle\n",
};

Deno.test("search and fs_list: a .gitignore above the repository root is not applied", async () => {
  await using ws = await tempWorkspace(NESTED);
  const root = ws.join("repo");
  await using search = await connectSearch(root);
  assert.deepEqual(await grepFiles(search, { pattern: "needle" }), ["a.txt", "sub/c.txt"]);
  assert.deepEqual(await listed(search, { pattern: "*.txt" }), ["a.txt", "sub/c.txt"]);
  // A subfolder still gets the repository's own rules from above it.
  assert.deepEqual(await grepFiles(search, { pattern: "needle", path: "sub" }), ["sub/c.txt"]);
  assert.deepEqual(await listed(search, { pattern: "*.txt", path: "sub" }), ["sub/c.txt"]);
  await using fs = await fsClient(root);
  const tree = textOf(await fs.call("fs_list", {}));
  assert.match(tree, /a\.txt/);
  assert.match(tree, /c\.txt/);
  assert.doesNotMatch(tree, /b\.txt/);
  assert.match(tree, /shown of 2 files in all/);
  const sub = textOf(await fs.call("fs_list", { path: "sub" }));
  assert.match(sub, /c\.txt/);
  assert.doesNotMatch(sub, /b\.txt/);
});

Deno.test("search and fs_list: outside a repository the workspace's .gitignore still counts", async () => {
  await using ws = await tempWorkspace({ ".gitignore": "*.log\n", "a.txt": "needle\n", "b.log": "needle\n" });
  await using search = await connectSearch(ws.path);
  assert.deepEqual(await grepFiles(search, { pattern: "needle" }), ["a.txt"]);
  assert.deepEqual(await listed(search, { pattern: "*" }), ["a.txt"]);
  await using fs = await fsClient(ws.path);
  assert.doesNotMatch(textOf(await fs.call("fs_list", {})), /b\.log/);
});
