/** The writing servers' guard: protected names as named, where a link leads, and through a linked name. */
import assert from "node:assert/strict";
import { protectedWriteReason, refuseProtectedWrite } from "../../../lib/sandbox/write_guard.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { isWindows } from "../../../lib/platform/mod.ts";

Deno.test("protectedWriteReason: every protected class is refused, existing or not, with its reason", async () => {
  await using ws = await tempWorkspace({ ".git/hooks/": "", ".git/config": "[core]\n" });
  const cases: [string, RegExp][] = [
    [".git/hooks/pre-commit", /^"\.git\/hooks" is protected \(git runs hooks\)$/],
    [".git/config", /^"\.git\/config" is protected/],
    [".git/modules/lib/hooks/post-checkout", /^"\.git\/modules" is protected/],
    [".git/worktrees/w/config", /^"\.git\/worktrees" is protected/],
    [".gitmodules", /^"\.gitmodules" is protected/],
    [".envrc", /^"\.envrc" is protected \(direnv runs it\)$/],
    ["sub/deeper/.envrc", /^"sub\/deeper\/\.envrc" is protected/],
    ["vendor/lib/.git/hooks/pre-push", /^"vendor\/lib\/\.git\/hooks" is protected/],
    [".continue/config.yaml", /^"\.continue" is protected/],
    [".mcp.json", /^"\.mcp\.json" is protected/],
    [".claude/settings.json", /^"\.claude" is protected/],
    [".vscode/tasks.json", /^"\.vscode" is protected/],
    [".idea/workspace.xml", /^"\.idea" is protected/],
    // Case-insensitive file systems (macOS, Windows) open `.git/hooks` for these.
    [".VSCode/tasks.json", /^"\.vscode" is protected/],
    [".GIT/HOOKS/pre-commit", /^"\.git\/hooks" is protected/],
    // Windows drops trailing dots and spaces and reads `name:stream` as `name`.
    [".git/config.", /^"\.git\/config" is protected/],
    [".git/config::$DATA", /^"\.git\/config" is protected/],
    [".vscode /tasks.json", /^"\.vscode" is protected/],
  ];
  for (const [relative, reason] of cases) {
    assert.match((await protectedWriteReason(ws.join(relative), [ws.path])) ?? "(allowed)", reason, relative);
  }
});

Deno.test("protectedWriteReason: ordinary files, the rest of .git and look-alike names stay writable", async () => {
  await using ws = await tempWorkspace({ ".git/objects/": "" });
  for (
    const relative of [
      "src/a.ts",
      ".git/objects/ab/cdef0123",
      ".git/refs/heads/main",
      ".git/index",
      ".git/COMMIT_EDITMSG",
      ".gitignore",
      ".github/workflows/ci.yml",
      ".continue-notes/plan.md",
      "sub/.vscode/settings.json",
      "sub/.continue/config.yaml",
      "hooks/pre-commit",
      ".envrc.example",
      ".vscode-notes.md",
    ]
  ) {
    assert.equal(await protectedWriteReason(ws.join(relative), [ws.path]), undefined, relative);
  }
  // Outside every root nothing is judged (the servers confine paths to the workspace before this).
  assert.equal(await protectedWriteReason(ws.join(".vscode", "tasks.json"), []), undefined);
});

Deno.test({
  name: "protectedWriteReason: a link inside the workspace is judged where it leads, a delete by the link",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace({
      ".git/hooks/": "",
      "x": { symlink: ".git/hooks/pre-commit" },
      "hooks": { symlink: ".git/hooks" },
    });
    assert.match(
      (await protectedWriteReason(ws.join("x"), [ws.path]))!,
      /^it leads to "\.git\/hooks\/pre-commit", and "\.git\/hooks" is protected \(git runs hooks\)$/,
    );
    assert.match((await protectedWriteReason(ws.join("hooks", "post-merge"), [ws.path]))!, /leads to/);
    // Deleting the link `x` changes the link only.
    assert.equal(await protectedWriteReason(ws.join("x"), [ws.path], { followLast: false }), undefined);
    assert.match(
      (await protectedWriteReason(ws.join(".git", "hooks", "x"), [ws.path], { followLast: false }))!,
      /"\.git\/hooks" is protected/,
    );
  },
});

Deno.test({
  name: "protectedWriteReason: a protected name that is a link protects where it leads",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace({ "editor/": "", ".vscode": { symlink: "editor" } });
    assert.match(
      (await protectedWriteReason(ws.join("editor", "tasks.json"), [ws.path]))!,
      /^it is reached through "\.vscode", and "\.vscode" is protected/,
    );
    assert.equal(await protectedWriteReason(ws.join("other.json"), [ws.path]), undefined);
  },
});

Deno.test("protectedWriteReason: a .git pointer file is protected whole, at the root and nested", async () => {
  await using ws = await tempWorkspace({ ".git": "gitdir: /elsewhere\n", "sub/.git": "gitdir: ../x\n" });
  assert.match((await protectedWriteReason(ws.join(".git"), [ws.path]))!, /"\.git" is a git pointer file/);
  assert.match(
    (await protectedWriteReason(ws.join("sub", ".git"), [ws.path]))!,
    /^"sub\/\.git" is a git pointer file \(git follows it\)$/,
  );
});

Deno.test("protectedWriteReason: every root counts, each judged on its own", async () => {
  await using ws = await tempWorkspace({ "a/": "", "b/": "" });
  const roots = [ws.join("a"), ws.join("b")];
  assert.match((await protectedWriteReason(ws.join("b", ".mcp.json"), roots))!, /"\.mcp\.json" is protected/);
  assert.equal(await protectedWriteReason(ws.join("b", "x", ".mcp.json"), roots), undefined);
});

Deno.test("refuseProtectedWrite: permission_denied, one sentence naming the path, why, and who can change it", async () => {
  await using ws = await tempWorkspace();
  await assert.rejects(
    refuseProtectedWrite(ws.join(".git", "hooks", "pre-commit"), {
      roots: [ws.path],
      action: `Cannot write ".git/hooks/pre-commit"`,
    }),
    (error: Error & { code?: string }) => {
      assert.equal(error.code, "permission_denied");
      assert.equal(
        error.message,
        `Cannot write ".git/hooks/pre-commit": ".git/hooks" is protected (git runs hooks); ` +
          "the user can change it outside the agent",
      );
      return true;
    },
  );
});
