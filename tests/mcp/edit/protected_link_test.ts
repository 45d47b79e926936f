/**
 * Round 2, R5: a file with several hard links is written in place, so its name alone says nothing about what
 * changes. A second name of .git/config (or of a hook, a pointer file, a hooksPath script) is refused; an
 * ordinary hard-linked file stays editable in place.
 */
import assert from "node:assert/strict";
import { connect, textOf } from "../../_support/connect.ts";
import { exists, git, gitOk } from "../../_support/git.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { createServer } from "../../../mcp/edit/server.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { isWindows } from "../../../lib/platform/mod.ts";

Deno.test({
  name: "R5: edit_file through a hard link to .git/config is refused; git status runs no fsmonitor",
  ignore: isWindows,
  async fn() {
    await using box = await tempWorkspace({ "ws/": "" });
    const ws = box.join("ws");
    const marker = box.join("PWN");
    await gitOk(box.path, "init", "-q", "ws");
    await Deno.link(`${ws}/.git/config`, `${ws}/cfglink`);
    const config = await Deno.readTextFile(`${ws}/.git/config`);
    await using edit = await connect(createServer({ workspace: new Workspace({ cwd: ws }) }));
    const result = await edit.call("edit_file", {
      path: "cfglink",
      edits: [{ old_text: "[core]", new_text: `[core]\n\tfsmonitor = "touch '${marker}'; false"` }],
    });
    assert.match(
      textOf(result),
      /^Error \[permission_denied\]: Cannot edit "cfglink": it is another name \(a hard link\) of "\.git\/config", and "\.git\/config" is protected/,
    );
    assert.equal(await Deno.readTextFile(`${ws}/.git/config`), config);
    await git(ws, ["status"], box.path);
    assert.equal(await exists(marker), false, "git status ran a planted fsmonitor");
  },
});

Deno.test({
  name: "R5: hard links to a hook, a hooksPath script and a .git pointer file are refused; others are edited",
  ignore: isWindows,
  async fn() {
    await using box = await tempWorkspace({ "ws/": "" });
    const ws = box.join("ws");
    await gitOk(box.path, "init", "-q", "ws");
    await gitOk(ws, "config", "core.hooksPath", "scripts/hooks");
    await Deno.mkdir(`${ws}/scripts/hooks`, { recursive: true });
    await Deno.mkdir(`${ws}/sub`);
    await Deno.writeTextFile(`${ws}/.git/hooks/pre-commit`, "#!/bin/sh\n", { mode: 0o755 });
    await Deno.writeTextFile(`${ws}/scripts/hooks/pre-push`, "#!/bin/sh\n", { mode: 0o755 });
    await Deno.writeTextFile(`${ws}/sub/.git`, "gitdir: ../.git\n");
    await Deno.link(`${ws}/.git/hooks/pre-commit`, `${ws}/h1`);
    await Deno.link(`${ws}/scripts/hooks/pre-push`, `${ws}/h2`);
    await Deno.link(`${ws}/sub/.git`, `${ws}/h3`);
    await Deno.writeTextFile(`${ws}/a.txt`, "one\n");
    await Deno.link(`${ws}/a.txt`, `${ws}/b.txt`);
    await using edit = await connect(createServer({ workspace: new Workspace({ cwd: ws }) }));
    const expected: [string, RegExp][] = [
      ["h1", /a hard link\) of "\.git\/hooks\/pre-commit", and "\.git\/hooks" is protected/],
      ["h2", /a hard link\) of "scripts\/hooks\/pre-push", and "scripts\/hooks" is git's hooks folder/],
      // A pointer file off the written path is known by what it says.
      ["h3", /it has 2 names \(hard links\) and reads as a git pointer file/],
    ];
    for (const [path, reason] of expected) {
      const result = await edit.call("edit_write", {
        path,
        content: "#!/bin/sh\ntouch x\n",
        overwrite: true,
      });
      assert.match(textOf(result), /^Error \[permission_denied\]: /, path);
      assert.match(textOf(result), reason, path);
    }
    const edited = await edit.call("edit_file", {
      path: "b.txt",
      edits: [{ old_text: "one", new_text: "two" }],
    });
    assert.match(textOf(edited), /written in place/);
    assert.equal(await Deno.readTextFile(`${ws}/a.txt`), "two\n");
    assert.equal((await Deno.stat(`${ws}/a.txt`)).nlink, 2);
  },
});
