import assert from "node:assert/strict";
import { gitDirChildReason, isGitDirShape, protectedReason } from "../../../lib/sandbox/protected.ts";

Deno.test("protectedReason: git's code-running parts, editor and agent settings, in any case", () => {
  for (
    const path of [
      ".git/hooks/pre-commit",
      ".git/config",
      ".GIT/Config",
      "vendor/lib/.git/hooks/post-checkout",
      ".git/modules/sub/config",
      ".git/commondir",
      ".git/config.worktree",
      ".gitmodules",
      "sub/.envrc",
      ".continue/mcpServers/evil.yaml",
      ".mcp.json",
      ".claude/settings.json",
      ".vscode/tasks.json",
      ".idea",
      ".git/commondir",
      "sub/.git/config.worktree",
      ".husky/pre-commit",
      "packages/web/.husky/_/pre-push",
      ".pre-commit-config.yaml",
      "lefthook.yml",
      ".lefthook.toml",
      "lefthook-local.json",
      ".config/lefthook.yaml",
      ".lefthook/pre-commit/lint.sh",
      ".lefthook-local/commit-msg/x",
    ]
  ) assert.ok(protectedReason(path), path);
});

Deno.test("protectedReason: hook managers' files say which tool runs them", () => {
  assert.match(
    protectedReason(".husky/pre-commit")!,
    /^"\.husky" is protected \(husky runs its scripts as git hooks\)$/,
  );
  assert.match(
    protectedReason(".pre-commit-config.yaml")!,
    /\(pre-commit runs the commands it names at git commit\)$/,
  );
  assert.match(protectedReason("lefthook.yml")!, /\(lefthook runs the commands it names at git commit\)$/);
  assert.match(
    protectedReason(".git/commondir")!,
    /^"\.git\/commondir" is protected \(git reads config and hooks from the folder it names\)$/,
  );
});

Deno.test("protectedReason: the rest of .git and ordinary files stay writable; root-only names only at the root", () => {
  for (
    const path of [
      ".git/objects/ab/cdef",
      ".git/refs/heads/main",
      ".git/index",
      ".git/HEAD",
      "src/config",
      "hooks/pre-commit",
      "docs/.vscode/settings.json",
      "pkg/.mcp.json",
      ".gitignore",
      "a.ts",
      ".git/info/attributes",
      ".pre-commit-hooks.yaml",
      "docs/husky.md",
      "lefthook.md",
    ]
  ) assert.equal(protectedReason(path), undefined, path);
  assert.match(protectedReason(".git/hooks/x")!, /^"\.git\/hooks" is protected \(git runs hooks\)$/);
});

Deno.test("protectedReason: a .git file (a worktree's pointer) is protected as a whole", () => {
  assert.equal(protectedReason(".git"), undefined);
  assert.match(protectedReason(".git", { gitIsFile: true })!, /pointer file/);
});

Deno.test("isGitDirShape and gitDirChildReason: git's own test for a repository folder, and what is kept in one", () => {
  assert.equal(isGitDirShape(new Set(["head", "objects", "refs"])), true);
  assert.equal(isGitDirShape(new Set(["head", "commondir"])), true);
  assert.equal(isGitDirShape(new Set(["objects", "refs", "config"])), false);
  assert.equal(isGitDirShape(new Set(["head", "objects"])), false);
  assert.match(gitDirChildReason("hooks/pre-commit")!, /^its "hooks" is protected \(git runs hooks\)$/);
  assert.match(gitDirChildReason("Config")!, /^its "config" is protected/);
  assert.equal(gitDirChildReason("objects/ab/cd"), undefined);
  assert.equal(gitDirChildReason("info/attributes"), undefined);
});
