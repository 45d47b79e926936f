/**
 * Round 2, R1: git reads config and hooks from any folder a `.git` pointer or a `commondir` names, and from a
 * bare repository's own folder; edit_write must not let a model make or redirect such a folder. Each test
 * performs the attack with real git and checks that `git status` (or a push) runs nothing planted.
 */
import assert from "node:assert/strict";
import { connect, type Connection, textOf } from "../../_support/connect.ts";
import { exists, git, gitOk } from "../../_support/git.ts";
import { type TempWorkspace, tempWorkspace } from "../../_support/workspace.ts";
import { createServer } from "../../../mcp/edit/server.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { isWindows } from "../../../lib/platform/mod.ts";

/** A temp folder holding the workspace `ws/` (a git repository unless `bare` is false) and the marker's place. */
async function repo(init = true): Promise<{ box: TempWorkspace; ws: string; marker: string }> {
  const box = await tempWorkspace({ "ws/": "" });
  if (init) await gitOk(box.path, "init", "-q", "ws");
  return { box, ws: box.join("ws"), marker: box.join("PWN") };
}

/** A git config whose fsmonitor creates `marker` on the next `git status`. */
function fsmonitorConfig(marker: string): string {
  return `[core]\n\trepositoryformatversion = 0\n\tfsmonitor = "touch '${marker}'; false"\n`;
}

/** Calls edit_write for each `[path, content]` and returns each answer's text. */
async function writeAll(edit: Connection, files: [string, string][]): Promise<string[]> {
  const answers: string[] = [];
  for (const [path, content] of files) {
    answers.push(textOf(await edit.call("edit_write", { path, content, overwrite: true })));
  }
  return answers;
}

const ignore = isWindows; // The planted commands are POSIX shell.

Deno.test(
  { name: "R1: .git/commondir is refused, and git status runs no planted fsmonitor", ignore },
  async () => {
    const { box, ws, marker } = await repo();
    await using _ = box;
    await using edit = await connect(createServer({ workspace: new Workspace({ cwd: ws }) }));
    const answers = await writeAll(edit, [
      [".git/commondir", "../evil\n"],
      ["evil/config", fsmonitorConfig(marker)],
      ["evil/HEAD", "ref: refs/heads/master\n"],
      ["evil/objects/info/x", ""],
      ["evil/refs/heads/x", ""],
    ]);
    assert.match(
      answers[0],
      /^Error \[permission_denied\]: Cannot write "\.git\/commondir": "\.git\/commondir" is protected \(git reads config and hooks from the folder it names\)/,
    );
    // The write that would make "evil" a git folder (HEAD, objects/, refs/) is refused too.
    assert.match(
      answers[4],
      /^Error \[permission_denied\]: Cannot write "evil\/refs\/heads\/x": it would make "evil" a git repository folder/,
    );
    assert.equal(await exists(`${ws}/.git/commondir`), false);
    await git(ws, ["status"], box.path);
    assert.equal(await exists(marker), false, "git status ran the planted fsmonitor");
  },
);

Deno.test({ name: "R1: a commondir naming a ready-made git folder is refused too", ignore }, async () => {
  const { box, ws, marker } = await repo();
  await using _ = box;
  await gitOk(box.path, "init", "-q", "--bare", "evil");
  await Deno.writeTextFile(box.join("evil", "config"), fsmonitorConfig(marker));
  await using edit = await connect(createServer({ workspace: new Workspace({ cwd: ws }) }));
  const [answer] = await writeAll(edit, [[".git/commondir", `${box.join("evil")}\n`]]);
  assert.match(answer, /^Error \[permission_denied\]: .*"\.git\/commondir" is protected/);
  await git(ws, ["status"], box.path);
  assert.equal(await exists(marker), false);
});

Deno.test(
  { name: "R1: no .git entry is created, at the root or nested, file or folder", ignore },
  async () => {
    const { box, ws, marker } = await repo(false);
    await using _ = box;
    await using edit = await connect(createServer({ workspace: new Workspace({ cwd: ws }) }));
    const answers = await writeAll(edit, [
      [".git", "gitdir: g\n"],
      ["g/config", fsmonitorConfig(marker)],
      ["g/HEAD", "ref: refs/heads/master\n"],
      ["g/objects/x", ""],
      ["g/refs/x", ""],
      ["sub/.git", "gitdir: ../g\n"],
      ["sub/.git/HEAD", "ref: refs/heads/master\n"],
      ["sub/.GIT/objects/x", ""],
    ]);
    assert.match(
      answers[0],
      /^Error \[permission_denied\]: Cannot write "\.git": creating "\.git" is refused \(git would take it for a repository\)/,
    );
    assert.match(answers[4], /^Error \[permission_denied\]: .*it would make "g" a git repository folder/);
    for (const answer of answers.slice(5)) {
      assert.match(
        answer,
        /^Error \[permission_denied\]: .*creating "sub\/\.git"/i,
      );
    }
    assert.equal(await exists(`${ws}/.git`), false);
    assert.equal(await exists(`${ws}/sub/.git`), false);
    await git(ws, ["status"], box.path);
    assert.equal(await exists(marker), false, "git status ran the planted fsmonitor");
  },
);

Deno.test(
  { name: "R1: a --separate-git-dir folder in the workspace keeps its config and hooks", ignore },
  async () => {
    const box = await tempWorkspace({ "ws/meta/": "" });
    await using _ = box;
    const ws = box.join("ws");
    const marker = box.join("PWN");
    await gitOk(box.path, "init", "-q", `--separate-git-dir=${box.join("ws", "meta", "gd")}`, "ws");
    await using edit = await connect(createServer({ workspace: new Workspace({ cwd: ws }) }));
    const answers = await writeAll(edit, [
      ["meta/gd/config", fsmonitorConfig(marker)],
      ["meta/gd/config.worktree", fsmonitorConfig(marker)],
      ["meta/gd/hooks/pre-commit", "#!/bin/sh\n"],
    ]);
    await git(ws, ["status"], box.path);
    assert.equal(await exists(marker), false, "git status ran the planted fsmonitor");
    answers.push(...await writeAll(edit, [["meta/gd/commondir", "../../elsewhere\n"]]));
    for (const answer of answers) {
      assert.match(answer, /^Error \[permission_denied\]: .*"meta\/gd" is a git repository folder/);
    }
    // Its ordinary contents stay writable, as in a .git folder.
    const [description] = await writeAll(edit, [["meta/gd/description", "mine\n"]]);
    assert.doesNotMatch(description, /^Error/);
    assert.equal((await git(ws, ["status"], box.path)).code, 0);
  },
);

Deno.test({
  name: "R1: a bare repository's config and hooks are refused; a push runs no planted hook",
  ignore,
}, async () => {
  const { box, ws, marker } = await repo();
  await using _ = box;
  await gitOk(ws, "init", "-q", "--bare", "bare.git");
  await Deno.writeTextFile(`${ws}/bare.git/hooks/pre-receive`, "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  const config = await Deno.readTextFile(`${ws}/bare.git/config`);
  await using edit = await connect(createServer({ workspace: new Workspace({ cwd: ws }) }));
  const answers = await writeAll(edit, [
    ["bare.git/hooks/pre-receive", `#!/bin/sh\ntouch '${marker}'\n`],
    ["bare.git/config", fsmonitorConfig(marker)],
  ]);
  for (const answer of answers) {
    assert.match(answer, /^Error \[permission_denied\]: .*"bare\.git" is a git repository folder/);
  }
  assert.equal(await Deno.readTextFile(`${ws}/bare.git/config`), config);
  await Deno.writeTextFile(`${ws}/a.txt`, "a\n");
  await gitOk(ws, "add", "a.txt");
  await gitOk(ws, "commit", "-qm", "a");
  await git(ws, ["push", "-q", "bare.git", "HEAD:refs/heads/main"], box.path);
  assert.equal(await exists(marker), false, "the push ran a planted pre-receive hook");
});

Deno.test(
  { name: "R1: a real repository's .git stays writable where git keeps no code", ignore },
  async () => {
    const { box, ws } = await repo();
    await using _ = box;
    await using edit = await connect(createServer({ workspace: new Workspace({ cwd: ws }) }));
    const answers = await writeAll(edit, [
      [".git/HEAD", "ref: refs/heads/topic\n"],
      [".git/objects/info/alternates", ""],
      [".git/info/exclude", "*.log\n"],
      [".git/info/attributes", "*.bin binary\n"],
      [".git/description", "mine\n"],
      ["src/objects/HEAD.md", "a folder named objects is fine\n"],
    ]);
    for (const answer of answers) assert.doesNotMatch(answer, /^Error/, answer);
    assert.equal((await git(ws, ["status"], box.path)).code, 0);
  },
);
