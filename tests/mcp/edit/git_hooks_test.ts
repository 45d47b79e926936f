/**
 * Round 2, R2: hooks kept outside .git/hooks (core.hooksPath, husky, the pre-commit framework, lefthook) are
 * as protected as .git/hooks. Each test plants through edit_write and checks that a real `git commit` runs
 * nothing planted.
 */
import assert from "node:assert/strict";
import { connect, textOf } from "../../_support/connect.ts";
import { exists, git, gitOk } from "../../_support/git.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { createServer } from "../../../mcp/edit/server.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { isWindows } from "../../../lib/platform/mod.ts";

const ignore = isWindows; // Hooks need the executable bit and a POSIX shell.

/** A repository `ws/` (in a temp folder that also holds the marker) with one commit's worth of set-up. */
async function hookedRepo(files: Record<string, string>, hooksPath?: string) {
  const box = await tempWorkspace({ "ws/": "" });
  const ws = box.join("ws");
  await gitOk(box.path, "init", "-q", "ws");
  if (hooksPath) await gitOk(ws, "config", "core.hooksPath", hooksPath);
  for (const [path, content] of Object.entries(files)) {
    await Deno.mkdir(`${ws}/${path}`.replace(/\/[^/]*$/, ""), { recursive: true });
    await Deno.writeTextFile(`${ws}/${path}`, content, { mode: 0o755 });
  }
  return { box, ws, marker: box.join("PWN") };
}

/** Stages a change and commits it, hooks and all. */
async function commit(ws: string, ceiling: string): Promise<void> {
  await Deno.writeTextFile(`${ws}/change.txt`, crypto.randomUUID());
  await gitOk(ws, "add", "change.txt");
  await git(ws, ["commit", "-qm", "change"], ceiling);
}

Deno.test(
  { name: "R2: husky's .husky/pre-commit is refused; git commit runs no planted hook", ignore },
  async () => {
    // husky v9: core.hooksPath is .husky/_, whose stubs run the user's scripts one folder up.
    const { box, ws, marker } = await hookedRepo({
      ".husky/_/pre-commit": '#!/bin/sh\nsh "$(dirname "$0")/../pre-commit"\n',
      ".husky/pre-commit": "exit 0\n",
    }, ".husky/_");
    await using _ = box;
    await using edit = await connect(createServer({ workspace: new Workspace({ cwd: ws }) }));
    for (const path of [".husky/pre-commit", ".husky/_/pre-commit", "pkg/.husky/pre-push"]) {
      const answer = textOf(
        await edit.call("edit_write", { path, content: `touch '${marker}'\n`, overwrite: true }),
      );
      assert.match(
        answer,
        /^Error \[permission_denied\]: .*"(pkg\/)?\.husky" is protected \(husky runs its scripts as git hooks\)/,
      );
    }
    await commit(ws, box.path);
    assert.equal(await exists(marker), false, "git commit ran a planted husky hook");
  },
);

Deno.test({ name: "R2: the folder core.hooksPath names is refused, wherever it is", ignore }, async () => {
  const { box, ws, marker } = await hookedRepo(
    { "tools/githooks/pre-commit": "#!/bin/sh\nexit 0\n" },
    "tools/githooks",
  );
  await using _ = box;
  await using edit = await connect(createServer({ workspace: new Workspace({ cwd: ws }) }));
  for (
    const path of ["tools/githooks/pre-commit", "tools/githooks/commit-msg", "tools/githooks/lib/common.sh"]
  ) {
    const answer = textOf(
      await edit.call("edit_write", { path, content: `#!/bin/sh\ntouch '${marker}'\n`, overwrite: true }),
    );
    assert.match(
      answer,
      /^Error \[permission_denied\]: .*"tools\/githooks" is git's hooks folder \(core\.hooksPath in "\.git\/config"\)/,
      path,
    );
  }
  // Its neighbours stay writable.
  const fine = await edit.call("edit_write", { path: "tools/build.sh", content: "echo ok\n" });
  assert.equal(fine.isError, undefined, textOf(fine));
  await commit(ws, box.path);
  assert.equal(await exists(marker), false, "git commit ran a planted hook");
});

Deno.test(
  { name: "R2: an absolute core.hooksPath, and one that is the work tree itself", ignore },
  async () => {
    const { box, ws, marker } = await hookedRepo({ "hooks-here/pre-commit": "#!/bin/sh\nexit 0\n" });
    await using _ = box;
    await gitOk(ws, "config", "core.hooksPath", `${ws}/hooks-here`);
    await using edit = await connect(createServer({ workspace: new Workspace({ cwd: ws }) }));
    const planted = `#!/bin/sh\ntouch '${marker}'\n`;
    const absolute = await edit.call("edit_write", {
      path: "hooks-here/pre-commit",
      content: planted,
      overwrite: true,
    });
    assert.match(textOf(absolute), /^Error \[permission_denied\]: .*"hooks-here" is git's hooks folder/);
    await commit(ws, box.path);
    assert.equal(await exists(marker), false, "git commit ran a planted hook");
    await gitOk(ws, "config", "core.hooksPath", ".");
    const top = await edit.call("edit_write", { path: "pre-commit", content: planted });
    assert.match(textOf(top), /^Error \[permission_denied\]: .*"pre-commit" is a hook in git's hooks folder/);
    // Only hook names are refused when the hooks folder is the work tree.
    const fine = await edit.call("edit_write", { path: "src/a.ts", content: "x" });
    assert.equal(fine.isError, undefined, textOf(fine));
  },
);

Deno.test({ name: "R2: the pre-commit framework's and lefthook's configs are refused", ignore }, async () => {
  const { box, ws, marker } = await hookedRepo({});
  await using _ = box;
  await using edit = await connect(createServer({ workspace: new Workspace({ cwd: ws }) }));
  const local =
    `repos:\n- repo: local\n  hooks:\n  - id: x\n    name: x\n    entry: touch '${marker}'\n    language: system\n`;
  for (
    const path of [
      ".pre-commit-config.yaml",
      "lefthook.yml",
      ".lefthook.yml",
      "lefthook-local.yml",
      "lefthook.yaml",
      ".config/lefthook.yml",
      ".lefthook/pre-commit/run.sh",
      "sub/lefthook.toml",
    ]
  ) {
    const answer = textOf(await edit.call("edit_write", { path, content: local }));
    assert.match(answer, /^Error \[permission_denied\]: .* is protected \((pre-commit|lefthook) /, path);
  }
});
