import assert from "node:assert/strict";
import { protectedReason } from "../../../lib/sandbox/protected.ts";

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
    ]
  ) assert.ok(protectedReason(path), path);
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
    ]
  ) assert.equal(protectedReason(path), undefined, path);
  assert.match(protectedReason(".git/hooks/x")!, /^"\.git\/hooks" is protected \(git runs hooks\)$/);
});

Deno.test("protectedReason: a .git file (a worktree's pointer) is protected as a whole", () => {
  assert.equal(protectedReason(".git"), undefined);
  assert.match(protectedReason(".git", { gitIsFile: true })!, /pointer file/);
});
