/** fs_list shares lib/ripgrep's ignore rules: ignore files above a workspace outside git do not apply. */
import assert from "node:assert/strict";
import { textOf } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { fsClient } from "./_fixture.ts";
import { TREE } from "../search/_above_fixture.ts";

Deno.test("fs_list: ignore files above a workspace outside git are not applied", async () => {
  await using parent = await tempWorkspace(TREE);
  await using fs = await fsClient(parent.join("ws"));
  const tree = textOf(await fs.call("fs_list", { depth: 5 }));
  for (const name of ["a.ts", "c.ts", "f.ts", "top.txt"]) assert.match(tree, new RegExp(name), tree);
  for (const name of ["b.log", "d.log", "e.ts", "skip.ts"]) assert.doesNotMatch(tree, new RegExp(name), tree);
  assert.match(tree, /shown of 4 files in all/);
  const src = textOf(await fs.call("fs_list", { path: "src", depth: 5 }));
  for (const name of ["c.ts", "f.ts", "top.txt"]) assert.match(src, new RegExp(name), src);
  for (const name of ["d.log", "e.ts", "skip.ts"]) assert.doesNotMatch(src, new RegExp(name), src);
  assert.match(src, /shown of 3 files in all/);
});
