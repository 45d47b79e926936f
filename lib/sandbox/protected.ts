/**
 * Names never written by a job or a tool, even inside the workspace: what another program later runs or obeys
 * without asking (git hooks and config, editor and agent settings, direnv, shell start-up files). A planted
 * `.git/hooks/pre-commit` or `fsmonitor = <command>` in `.git/config` runs outside any sandbox the next time
 * the user types `git commit`. One list for the shell sandbox and the servers that write files (edit, notes,
 * sql). Pure data and functions; names compare case-insensitively (macOS and Windows file systems do).
 * @module
 */

/** A protected name: a path relative to its folder, and where that folder may be. */
export interface ProtectedName {
  /** Slash-separated, lower case: `.git/hooks`, `.vscode`. A folder covers everything below it. */
  path: string;
  /** `root`: only directly in a workspace root; `any`: in any folder of it (nested repositories too). */
  depth: "root" | "any";
  /** Why, in a few words, for the refusal message. */
  why: string;
}

/** The list. `.git` itself stays writable (commits, branches, fetches); its code-running parts do not. */
export const PROTECTED_NAMES: readonly ProtectedName[] = [
  { path: ".git/hooks", depth: "any", why: "git runs hooks" },
  { path: ".git/config", depth: "any", why: "git runs commands its config names" },
  // Submodules and worktrees keep their own config and hooks under .git/modules/<name>/ and .git/worktrees/.
  { path: ".git/modules", depth: "any", why: "submodules' git config and hooks" },
  { path: ".git/worktrees", depth: "any", why: "worktrees' git config" },
  // A `commondir` file makes git read config and hooks from the folder it names (one the writer chose).
  { path: ".git/commondir", depth: "any", why: "git reads its config from where it points" },
  { path: ".git/config.worktree", depth: "any", why: "git runs commands its config names" },
  { path: ".gitmodules", depth: "any", why: "git clones what it names" },
  { path: ".envrc", depth: "any", why: "direnv runs it" },
  { path: ".continue", depth: "root", why: "Continue's configuration" },
  { path: ".mcp.json", depth: "root", why: "MCP servers a client starts" },
  { path: ".claude", depth: "root", why: "Claude Code's configuration" },
  { path: ".vscode", depth: "root", why: "the editor runs tasks it names" },
  { path: ".idea", depth: "root", why: "the editor runs tasks it names" },
];

/**
 * Why `relative` (a path inside a workspace root, slash-separated, relative to that root) may not be
 * written, or undefined when it may. A `.git` that is a file (a worktree's pointer) is protected as a whole:
 * rewritten, it would point git at a folder whose hooks the writer chose.
 */
export function protectedReason(relative: string, options: { gitIsFile?: boolean } = {}): string | undefined {
  const parts = relative.toLowerCase().split("/").filter((part) => part !== "" && part !== ".");
  if (options.gitIsFile && parts[0] === ".git") return `".git" is a git pointer file (git follows it)`;
  for (const name of PROTECTED_NAMES) {
    const wanted = name.path.split("/");
    const starts = name.depth === "root" ? [0] : parts.map((_, at) => at);
    for (const at of starts) {
      if (wanted.every((part, i) => parts[at + i] === part)) {
        return `"${parts.slice(0, at + wanted.length).join("/")}" is protected (${name.why})`;
      }
    }
  }
  return undefined;
}
