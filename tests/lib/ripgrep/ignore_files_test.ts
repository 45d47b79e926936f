import assert from "node:assert/strict";
import { ignoredNames } from "../../../lib/ripgrep/ignore_files.ts";
import { listFiles } from "../../../lib/ripgrep/files.ts";
import { requireRipgrep } from "../../../lib/ripgrep/locate.ts";
import { toSlashes } from "../../../lib/platform/mod.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

const FIXTURE = {
  "above/.gitignore": "*\n", // Above the repository's root: git and ripgrep never read it.
  "above/repo/.git/HEAD": "ref: refs/heads/main\n",
  "above/repo/.git/info/exclude": "local-only.txt\n",
  "above/repo/.gitignore": "# comment\n*.log\n/build/\ndocs/*.md\n!keep.log\nSecret.JSON\ntrailing.txt   \n",
  "above/repo/src/.ignore": "generated/\n",
  "above/repo/src/a.ts": "",
  "above/repo/src/a.log": "",
  "above/repo/src/keep.log": "",
  "above/repo/src/generated/x.ts": "",
  "above/repo/src/build/y.ts": "",
  "above/repo/build/z.ts": "",
  "above/repo/docs/guide.md": "",
  "above/repo/docs/deep/guide.md": "",
  "above/repo/secret.json": "",
  "above/repo/local-only.txt": "",
  "above/repo/trailing.txt": "",
  "above/repo/readme.md": "",
};

/** `ignoredNames` over the entries of `folder`, sorted. */
async function ignoredIn(folder: string): Promise<string[]> {
  const entries = [];
  for await (const entry of Deno.readDir(folder)) {
    entries.push({ name: entry.name, isDirectory: entry.isDirectory });
  }
  return [...await ignoredNames(folder, entries)].sort();
}

Deno.test("ignoredNames applies .gitignore, .ignore and info/exclude up to the repository root", async () => {
  await using ws = await tempWorkspace(FIXTURE);
  const repo = ws.join("above", "repo");
  assert.deepEqual(await ignoredIn(repo), ["build", "local-only.txt", "secret.json", "trailing.txt"]);
  // A negation is not applied: keep.log stays held back (cautious); a nested .ignore counts; /build/ is anchored.
  assert.deepEqual(await ignoredIn(ws.join("above", "repo", "src")), ["a.log", "generated", "keep.log"]);
  assert.deepEqual(await ignoredIn(ws.join("above", "repo", "docs")), ["guide.md"]);
  assert.deepEqual(await ignoredIn(ws.join("above", "repo", "docs", "deep")), []);
});

Deno.test("ignoredNames holds back at least every top-level name ripgrep leaves out", async () => {
  await using ws = await tempWorkspace(FIXTURE);
  for (const folder of [ws.join("above", "repo"), ws.join("above", "repo", "src")]) {
    const { run, paths } = listFiles(await requireRipgrep(), { cwd: folder, inGitRepo: true });
    const listed = new Set<string>();
    for await (const path of paths) listed.add(toSlashes(path).split("/")[0]);
    await run.exit;
    const ignored = new Set(await ignoredIn(folder));
    for await (const entry of Deno.readDir(folder)) {
      if (entry.name.startsWith(".") || listed.has(entry.name)) continue;
      assert.ok(ignored.has(entry.name), `ripgrep hides "${entry.name}" but ignoredNames lets it through`);
    }
  }
});
