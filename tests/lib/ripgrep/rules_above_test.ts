import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { rulesAbove } from "../../../lib/ripgrep/rules_above.ts";
import { ignoreRuleArgs, ignoreScope } from "../../../lib/ripgrep/ignore_rules.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { requireRipgrep } from "../../../lib/ripgrep/locate.ts";
import { lookUpward, repoLevel } from "../../../lib/workspace/trusted_above.ts";

Deno.test("rulesAbove reads the ignore files between the top and the walked folder, as ripgrep would", async () => {
  await using ws = await tempWorkspace({
    "top/.gitignore": "*.log\n!keep.log\n# a comment\nbuild/\n/anchored.txt\nsub/walk/x/\n\\#hash\n",
    "top/.rgignore": "!strong.log\n",
    "top/sub/.ignore": "*.tmp\n[bad\n",
    "top/sub/walk/.gitignore": "ignored by ripgrep itself, not read here\n",
  });
  const top = ws.join("top");
  const folder = ws.join("top/sub/walk");
  const keep = await rulesAbove({ folder, top, cwd: top });
  assert.ok(keep);
  const kept = (path: string) => keep(`sub/walk/${path}`);
  assert.equal(kept("a.ts"), true);
  assert.equal(kept("a.log"), false);
  assert.equal(kept("deep/a.log"), false);
  assert.equal(kept("keep.log"), true, "a later ! line wins");
  assert.equal(kept("strong.log"), true, ".rgignore before .gitignore");
  assert.equal(kept("a.tmp"), false, "a .ignore in a folder between");
  assert.equal(kept("build/a.ts"), false, "an ignored folder hides all below it");
  assert.equal(kept("build"), true, "build/ matches folders only");
  assert.equal(kept("anchored.txt"), true, "/anchored.txt is top's own file");
  assert.equal(kept("x/a.ts"), false, "an anchored path into the walked folder");
  assert.equal(kept("#hash"), false);
  // Paths as listed: absolute, or not under the walked folder (a file named as path) are judged or kept.
  assert.equal(keep(ws.join("top/sub/walk/a.log")), false);
  assert.equal(keep("other/a.log"), true);
  assert.equal(keep("sub/walk"), true);
});

Deno.test("rulesAbove has nothing to do at the top, or without ignore files on the way", async () => {
  await using ws = await tempWorkspace({ "top/.gitignore": "*\n", "top/a/b/c.txt": "x" });
  assert.equal(await rulesAbove({ folder: ws.join("top"), top: ws.join("top"), cwd: ws.path }), undefined);
  assert.equal(
    await rulesAbove({ folder: ws.join("top/a/b"), top: ws.join("top/a"), cwd: ws.path }),
    undefined,
  );
  assert.ok(await rulesAbove({ folder: ws.join("top/a/b"), top: ws.join("top"), cwd: ws.path }));
});

Deno.test("ignoreScope: outside a repository ripgrep reads no parent ignore files; inside one, the trusted ones", async () => {
  await using ws = await tempWorkspace({
    ".gitignore": "*\n",
    "plain/.gitignore": "*.log\n",
    "plain/sub/a.txt": "x",
    "repo/.git/HEAD": "ref: refs/heads/main\n",
    "repo/.gitignore": "*.log\n",
    "repo/sub/a.txt": "x",
  });
  const plain = await ignoreScope(ws.join("plain/sub"), { tops: [ws.join("plain")], cwd: ws.join("plain") });
  assert.equal(plain.inGitRepo, false);
  assert.equal(plain.above?.("sub/a.log"), false);
  assert.equal(plain.above?.("sub/a.txt"), true);
  assert.ok(ignoreRuleArgs({ inGitRepo: false }).includes("--no-ignore-parent"));
  const repo = await ignoreScope(ws.join("repo/sub"), { tops: [ws.join("repo")], cwd: ws.join("repo") });
  assert.equal(repo.inGitRepo, true);
  if ((await lookUpward(ws.path, [ws.path])).whole) {
    // Every folder up to / is trusted (a private temp folder): ripgrep reads them itself.
    assert.deepEqual(repo, { inGitRepo: true, trustedParents: true });
  } else {
    // Above a shared temp folder (/tmp) it reads none, and the repository's own come back by the filter.
    assert.equal(repo.trustedParents, undefined);
    assert.equal(repo.above?.("sub/a.log"), false);
    assert.equal(repo.above?.("sub/a.txt"), true);
  }
  assert.ok(ignoreRuleArgs({ inGitRepo: true }).includes("--no-ignore-parent"));
  assert.ok(!ignoreRuleArgs({ inGitRepo: true, trustedParents: true }).includes("--no-ignore-parent"));
});

Deno.test("ignoreScope: in a checkout whose folders up to / are trusted, ripgrep reads the parents itself", async (t) => {
  // This test's own folder, in the project's checkout: no temp folder, whose parents are often shared.
  const here = await Deno.realPath(fileURLToPath(new URL(".", import.meta.url)));
  const checkout = await Deno.realPath(fileURLToPath(new URL("../../..", import.meta.url)));
  const upward = await lookUpward(checkout, [checkout]);
  if (!upward.whole || !repoLevel(upward)) {
    await t.step({ name: "not a git checkout with trusted parents here", ignore: true, fn() {} });
    return;
  }
  assert.deepEqual(await ignoreScope(here, { tops: [checkout], cwd: checkout }), {
    inGitRepo: true,
    trustedParents: true,
  });
});

Deno.test("rulesAbove agrees with ripgrep's own reading of parent ignore files (in a repository)", async () => {
  const tree = {
    ".gitignore": "*.log\n!keep.log\nbuild/\n/a/only-top.txt\na/b/gen/\n**/cache\n*.t[mx]p\n",
    ".ignore": "!x.tmp\n",
    "a/.gitignore": "/b/anchored.txt\nsecret*\n",
    "a/.rgignore": "!secret-ok.txt\n",
    "a/b/f.ts": "x",
    "a/b/f.log": "x",
    "a/b/keep.log": "x",
    "a/b/anchored.txt": "x",
    "a/b/c/anchored.txt": "x",
    "a/b/only-top.txt": "x",
    "a/b/build/out.js": "x",
    "a/b/gen/g.ts": "x",
    "a/b/c/cache/z.ts": "x",
    "a/b/secret.txt": "x",
    "a/b/secret-ok.txt": "x",
    "a/b/y.tmp": "x",
    "a/b/x.tmp": "x",
    "a/b/c/d/e.ts": "x",
  };
  await using ws = await tempWorkspace(tree);
  const rg = await requireRipgrep();
  const list = async (args: string[]) => {
    const out = await new Deno.Command(rg.path, {
      args: ["--files", "--no-config", ...args, "a/b"],
      cwd: ws.path,
    })
      .output();
    return new TextDecoder().decode(out.stdout).split("\n").filter(Boolean).map((p) =>
      p.replaceAll("\\", "/")
    ).sort();
  };
  // Outside a repository: ripgrep alone, told not to read parents, then our filter.
  const keep = await rulesAbove({ folder: ws.join("a/b"), top: ws.path, cwd: ws.path });
  assert.ok(keep);
  const ours = (await list(["--no-require-git", "--no-ignore-parent"])).filter(keep);
  assert.deepEqual(ours, [
    "a/b/c/anchored.txt",
    "a/b/c/d/e.ts",
    "a/b/f.ts",
    "a/b/keep.log",
    "a/b/only-top.txt",
    "a/b/secret-ok.txt",
    "a/b/x.tmp",
  ]);
  // In a repository ripgrep reads the same parent files itself (and any above the temp folder: then skip).
  await Deno.mkdir(ws.join(".git"));
  if (await ignoreFilesAbove(ws.path)) return;
  assert.deepEqual(await list([]), [
    "a/b/c/anchored.txt",
    "a/b/c/d/e.ts",
    "a/b/f.ts",
    "a/b/keep.log",
    "a/b/only-top.txt",
    "a/b/secret-ok.txt",
    "a/b/x.tmp",
  ]);
});

Deno.test("rulesAbove with a repository root: no .gitignore above it, its info/exclude, as ripgrep reads them", async () => {
  await using ws = await tempWorkspace({
    ".gitignore": "*.ts\n",
    ".ignore": "*.tmp\n",
    "r/.git/info/exclude": "*.md\n",
    "r/.gitignore": "*.log\n",
    "r/a/.rgignore": "!keep.tmp\n",
    "r/a/b/f.ts": "x",
    "r/a/b/g.log": "x",
    "r/a/b/h.md": "x",
    "r/a/b/i.tmp": "x",
    "r/a/b/keep.tmp": "x",
    "r/a/b/j.txt": "x",
  });
  const rg = await requireRipgrep();
  const list = async (args: string[]) => {
    const out = await new Deno.Command(rg.path, {
      args: ["--files", "--no-config", ...args, "a/b"],
      cwd: ws.join("r"),
    })
      .output();
    return new TextDecoder().decode(out.stdout).split("\n").filter(Boolean).map((p) =>
      p.replaceAll("\\", "/")
    )
      .sort();
  };
  const keep = await rulesAbove({
    folder: ws.join("r/a/b"),
    top: ws.path,
    gitRoot: ws.join("r"),
    cwd: ws.join("r"),
  });
  assert.ok(keep);
  const ours = (await list(["--no-ignore-parent"])).filter(keep);
  assert.deepEqual(ours, ["a/b/f.ts", "a/b/j.txt", "a/b/keep.tmp"]);
  // ripgrep reading the parents itself agrees, unless the machine has ignore files above the temp folder.
  if (!(await ignoreFilesAbove(ws.path))) assert.deepEqual(await list([]), ours);
});

/** Whether a folder above `folder` holds an ignore file ripgrep would read (another user's, in /tmp). */
async function ignoreFilesAbove(folder: string): Promise<boolean> {
  const found: Promise<boolean>[] = [];
  for (let dir = dirname(folder);; dir = dirname(dir)) {
    for (const name of [".gitignore", ".ignore", ".rgignore"]) {
      found.push(Deno.lstat(join(dir, name)).then(() => true, () => false));
    }
    if (dirname(dir) === dir) break;
  }
  return (await Promise.all(found)).some(Boolean);
}
