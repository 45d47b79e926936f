import assert from "node:assert/strict";
import { isSmallTree } from "../../../lib/ripgrep/small_tree.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

const limits = { entries: 5, folders: 3 };

Deno.test("a tree within the bounds is small, counting every entry at every depth", async () => {
  await using ws = await tempWorkspace({ "a.txt": "", "d/b.txt": "", "d/e/c.txt": "" });
  // a.txt, d, d/b.txt, d/e, d/e/c.txt: 5 entries in 3 folders.
  assert.equal(await isSmallTree([ws.path], limits), true);
});

Deno.test("one entry, or one folder, past a bound makes the tree large", async () => {
  await using entries = await tempWorkspace({ "a.txt": "", "d/b.txt": "", "d/e/c.txt": "", "d/e/f.txt": "" });
  assert.equal(await isSmallTree([entries.path], limits), false);
  await using folders = await tempWorkspace({ "d/e/g/x": "" });
  assert.equal(await isSmallTree([folders.path], limits), false);
});

Deno.test("an unreadable or missing folder is not taken for a small one", async () => {
  await using ws = await tempWorkspace({});
  assert.equal(await isSmallTree([ws.join("missing")], limits), false);
});
