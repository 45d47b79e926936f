/** fs_list under a shared folder (like /tmp) where another user planted ignore files of `*` and a `.git`. */
import assert from "node:assert/strict";
import { textOf } from "../../_support/connect.ts";
import { sharedFolder } from "../../_support/shared_folder.ts";
import { spawnStdio } from "../../_support/stdio.ts";
import { isWindows } from "../../../lib/platform/mod.ts";
import { fsClient } from "./_fixture.ts";
import { plantAbove, VICTIM } from "../search/_planted_fixture.ts";

for (
  const [label, git, own] of [
    ["no repository", false, {}],
    ["a planted .git", true, {}],
    ["a repository of its own", true, { ".git/HEAD": "ref: refs/heads/main\n" }],
  ] as const
) {
  Deno.test({
    name: `fs_list: ignore files planted above a workspace (${label}) hide nothing (F6)`,
    ignore: isWindows,
    async fn() {
      await using box = await sharedFolder({ ...VICTIM, ...own });
      await plantAbove(box, { git });
      await using fs = await fsClient(box.workspace);
      const tree = textOf(await fs.call("fs_list", { depth: 5 }));
      for (const name of ["a.ts", "c.ts"]) assert.match(tree, new RegExp(name), tree);
      for (const name of ["b.log", "d.log"]) assert.doesNotMatch(tree, new RegExp(name), tree);
      const src = textOf(await fs.call("fs_list", { path: "src", depth: 5 }));
      assert.match(src, /c\.ts/, src);
      assert.doesNotMatch(src, /d\.log/, src);
      // "Did you mean" names what fs_list shows, by the same rules.
      const missing = textOf(await fs.call("fs_read", { path: "src/c.tss" }));
      assert.match(missing, /did you mean "src\/c\.ts"/, missing);
    },
  });
}

Deno.test({
  name:
    "stdio: fs-mcp with its own permissions trusts our repository root above the workspace, not /tmp's plants",
  ignore: isWindows,
  async fn() {
    // shared/ (1777, a .ignore of `*` planted) > victim/ (0700, ours: a repository) > pkg/ (the workspace).
    await using box = await sharedFolder({
      ".git/HEAD": "ref: refs/heads/main\n",
      ".gitignore": "*.log\n",
      "pkg/a.ts": "x\n",
      "pkg/b.log": "x\n",
    });
    await box.plant(".ignore", "*\n");
    await using c = await spawnStdio("fs", { cwd: `${box.workspace}/pkg` });
    const tree = textOf(await c.client.callTool({ name: "fs_list", arguments: {} }) as never);
    assert.equal(tree, "./\n  a.ts  2B\n[0 folders and 1 file shown of 1 file in all]");
  },
});
