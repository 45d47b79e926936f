import assert from "node:assert/strict";
import { textOf } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { connectSearch, GIT } from "./_connect.ts";
import { glob } from "../../../mcp/search/glob.ts";
import { requireRipgrep } from "../../../lib/ripgrep/locate.ts";

Deno.test("search_glob lists matching files newest first", async () => {
  await using ws = await tempWorkspace({ ...GIT, "old.ts": "", "src/mid.ts": "", "new.ts": "", "x.js": "" });
  const now = Date.now() / 1000;
  await Deno.utime(ws.join("old.ts"), now - 300, now - 300);
  await Deno.utime(ws.join("src/mid.ts"), now - 200, now - 200);
  await Deno.utime(ws.join("new.ts"), now - 100, now - 100);
  await using c = await connectSearch(ws.path);
  assert.equal(
    await c.text("search_glob", { pattern: "*.ts" }),
    "new.ts\nsrc/mid.ts\nold.ts\n\n3 files, newest first",
  );
  assert.equal(
    await c.text("search_glob", { pattern: "*.ts", sort: "path" }),
    "new.ts\nold.ts\nsrc/mid.ts\n\n3 files",
  );
});

Deno.test("search_glob pages with offset and says what is left", async () => {
  const files: Record<string, string> = { ...GIT };
  for (let i = 0; i < 12; i++) files[`f${String(i).padStart(2, "0")}.md`] = "";
  await using ws = await tempWorkspace(files);
  await using c = await connectSearch(ws.path);
  const pages: string[] = [];
  for (const offset of [0, 5, 10]) {
    pages.push(await c.text("search_glob", { pattern: "*.md", sort: "path", limit: 5, offset }));
  }
  assert.equal(
    pages[0],
    "f00.md\nf01.md\nf02.md\nf03.md\nf04.md\n\n12 files (showing 1-5; offset=5 for more)",
  );
  assert.match(pages[1], /^f05\.md\n[\s\S]*f09\.md\n\n12 files \(showing 6-10; offset=10 for more\)$/);
  assert.equal(pages[2], "f10.md\nf11.md\n\n12 files (showing 11-12)");
});

Deno.test("search_glob: path globs, negation, gitignore, and dotfiles named explicitly", async () => {
  await using ws = await tempWorkspace({
    ...GIT,
    ".gitignore": "dist/\n",
    "src/a/x.ts": "",
    "src/b.ts": "",
    "test/c.ts": "",
    "dist/d.ts": "",
    ".github/ci.yml": "",
    ".env": "",
  });
  await using c = await connectSearch(ws.path);
  const list = async (args: Record<string, unknown>) =>
    (await c.text("search_glob", { sort: "path", ...args })).split("\n\n")[0].split("\n");
  assert.deepEqual(await list({ pattern: "src/**/*.ts" }), ["src/a/x.ts", "src/b.ts"]);
  assert.deepEqual(await list({ pattern: ["*.ts", "!test/**"] }), ["src/a/x.ts", "src/b.ts"]);
  assert.deepEqual(await list({ pattern: "*.ts", path: "src/a" }), ["src/a/x.ts"]);
  assert.deepEqual(await list({ pattern: ".env*" }), [".env"]);
  assert.deepEqual(await list({ pattern: ".github/**" }), [".github/ci.yml"]);
  // Without a dotfile in the pattern, hidden folders stay hidden.
  assert.deepEqual(await list({ pattern: "*.yml" }), [
    'No files match "*.yml" in . (gitignored and hidden files skipped)',
  ]);
  assert.deepEqual(await list({ pattern: "*.yml", hidden: true }), [".github/ci.yml"]);
  assert.deepEqual(await list({ pattern: "*.ts", no_ignore: true }), [
    "dist/d.ts",
    "src/a/x.ts",
    "src/b.ts",
    "test/c.ts",
  ]);
});

Deno.test("search_glob: no match, bad glob, and paths outside the workspace", async () => {
  await using ws = await tempWorkspace({ ...GIT, "a.ts": "" });
  await using c = await connectSearch(ws.path);
  assert.equal(
    await c.text("search_glob", { pattern: "*.xyz" }),
    'No files match "*.xyz" in . (gitignored and hidden files skipped)',
  );
  assert.equal(
    await c.text("search_glob", { pattern: "*.xyz", no_ignore: true, hidden: true }),
    'No files match "*.xyz" in .',
  );
  const bad = await c.call("search_glob", { pattern: "{a" });
  assert.match(
    textOf(bad),
    /^Error \[invalid_argument\]: Cannot use glob "\{a": unclosed alternate group/,
  );
  assert.match(
    textOf(await c.call("search_glob", { pattern: "*", path: "/" })),
    /^Error \[outside_workspace\]/,
  );
});

Deno.test("search_glob counts up to a cap, then the total is N+", async () => {
  const files: Record<string, string> = { ...GIT };
  for (let i = 0; i < 12; i++) files[`f${i}.md`] = "";
  await using ws = await tempWorkspace(files);
  const text = await glob(await requireRipgrep(), {
    patterns: ["*.md"],
    paths: ["."],
    where: ".",
    limit: 3,
    sort: "path",
  }, { cwd: ws.path, timeoutMs: 30_000, countCap: 5 });
  assert.match(text, /\n\n5\+ files \(showing 1-3; offset=3 for more\)$/);
});

Deno.test("search_glob: the timeout stops the listing and says so", async () => {
  const files: Record<string, string> = { ...GIT };
  for (let i = 0; i < 400; i++) files[`d${i % 20}/f${i}.txt`] = "";
  await using ws = await tempWorkspace(files);
  await using c = await connectSearch(ws.path, { timeoutMs: 1 });
  const result = await c.call("search_glob", { pattern: "*.txt" });
  assert.equal(result.isError, undefined);
  assert.match(
    textOf(result),
    /\nStopped after 1 ms \(timeout\): the list is partial; narrow path or pattern$/,
  );
});
