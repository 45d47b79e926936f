/** A file with several hard links is judged by its other names: protected ones are refused, ordinary ones not. */
import assert from "node:assert/strict";
import { protectedWriteReason } from "../../../lib/sandbox/write_guard.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { isWindows } from "../../../lib/platform/mod.ts";

Deno.test({
  name: "link guard: a second name of a protected file is refused, naming the file and why",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace({
      ".git/config": "[core]\n\thooksPath = hooks-dir\n[include]\n\tpath = ../team.gitconfig\n",
      ".git/config.worktree": "[core]\n",
      ".git/hooks/pre-push": "#!/bin/sh\n",
      "hooks-dir/pre-commit": "#!/bin/sh\n",
      "team.gitconfig": "[user]\n",
      ".vscode/tasks.json": "{}",
      "sub/deeper/.envrc": "export A=1\n",
      ".git/modules/lib/config": "[core]\n",
      ".git/modules/lib/objects/pack/big": "data",
    });
    const cases: [string, RegExp][] = [
      [".git/config", /of "\.git\/config", and "\.git\/config" is protected/],
      [".git/config.worktree", /of "\.git\/config\.worktree", and "\.git\/config\.worktree" is protected/],
      [".git/hooks/pre-push", /of "\.git\/hooks\/pre-push", and "\.git\/hooks" is protected/],
      ["hooks-dir/pre-commit", /of "hooks-dir\/pre-commit", and "hooks-dir" is git's hooks folder/],
      ["team.gitconfig", /of "team\.gitconfig", and "team\.gitconfig" is included by git's config/],
      [".vscode/tasks.json", /of "\.vscode\/tasks\.json", and "\.vscode" is protected/],
      [".git/modules/lib/config", /of "\.git\/modules\/lib\/config", and "\.git\/modules" is protected/],
      // A protected name in a folder on the written path.
      ["sub/deeper/.envrc", /of "sub\/deeper\/\.envrc", and "sub\/deeper\/\.envrc" is protected/],
    ];
    for (const [target, expected] of cases) {
      const link = target.startsWith("sub/") ? "sub/deeper/link" : "link";
      await Deno.link(ws.join(target), ws.join(link));
      const reason = await protectedWriteReason(ws.join(link), [ws.path]);
      assert.match(reason ?? "(allowed)", /^it is another name \(a hard link\) of /, target);
      assert.match(reason!, expected, target);
      // Deleting that one name leaves the protected file as it was.
      assert.equal(await protectedWriteReason(ws.join(link), [ws.path], { followLast: false }), undefined);
      await Deno.remove(ws.join(link));
    }
  },
});

Deno.test({
  name: "link guard: ordinary hard-linked files stay writable; a linked file reading `gitdir: ` does not",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace({
      "a.txt": "one\n",
      "p": "gitdir: ../x\n",
      ".git/config": "[core]\n",
    });
    await Deno.link(ws.join("a.txt"), ws.join("b.txt"));
    assert.equal(await protectedWriteReason(ws.join("b.txt"), [ws.path]), undefined);
    assert.equal(
      await protectedWriteReason(ws.join("p"), [ws.path]),
      undefined,
      "one name: an ordinary file",
    );
    await Deno.link(ws.join("p"), ws.join("q"));
    assert.match(
      (await protectedWriteReason(ws.join("q"), [ws.path]))!,
      /^it has 2 names \(hard links\) and reads as a git pointer file \(git follows a "\.git" file\)$/,
    );
  },
});
