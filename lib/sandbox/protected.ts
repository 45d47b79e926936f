/**
 * Names never written by a job or a tool, even inside the workspace: what another program later runs or obeys
 * without asking (git hooks and config, hook managers' scripts and configs, editor and agent settings,
 * direnv). A planted `.git/hooks/pre-commit` or `fsmonitor = <command>` in `.git/config` runs outside any
 * sandbox the next time the user types `git commit`. One list for the shell sandbox and the servers that write
 * files (edit, notes, sql). Pure data and functions; names compare case-insensitively (macOS and Windows file
 * systems do). Names alone do not cover git: it follows pointer files, `commondir` and `core.hooksPath` to
 * folders of any name, so the writing servers also judge folders (git_guard.ts, git_dirs.ts), and
 * {@link GIT_DIR_PROTECTED}, {@link isGitDirShape} and {@link GIT_HOOK_NAMES} give those rules' data.
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

/**
 * What git obeys inside a repository folder (a `.git` folder, a folder a `.git` pointer or a `commondir` names,
 * a bare repository): rewritten, each runs code at the next `git status` or `git commit`. The rest of such a
 * folder (objects, refs, HEAD, index, `info/exclude`, `info/attributes`: attributes only pick drivers the
 * config defines, as a work tree's `.gitattributes` does) stays writable.
 */
export const GIT_DIR_PROTECTED: readonly { name: string; why: string }[] = [
  { name: "hooks", why: "git runs hooks" },
  { name: "config", why: "git runs commands its config names" },
  // Read besides config when extensions.worktreeConfig is on (`git sparse-checkout` turns it on).
  { name: "config.worktree", why: "git runs commands its config names" },
  { name: "commondir", why: "git reads config and hooks from the folder it names" },
  // Submodules and worktrees keep their own config and hooks under modules/<name>/ and worktrees/<name>/.
  { name: "modules", why: "submodules' git config and hooks" },
  { name: "worktrees", why: "worktrees' git config" },
];

/** lefthook's config and local-config names, read at a repository's top or in its `.config/`. */
const LEFTHOOK_CONFIGS = ["yml", "yaml", "toml", "json", "jsonc"].flatMap((ext) => [
  `lefthook.${ext}`,
  `.lefthook.${ext}`,
  `lefthook-local.${ext}`,
  `.lefthook-local.${ext}`,
  `.config/lefthook.${ext}`,
  `.config/lefthook-local.${ext}`,
]);

/**
 * The list. `.git` itself stays writable (commits, branches, fetches); its code-running parts do not. Hook
 * managers' files are protected in any folder: a nested repository or a monorepo package has its own top,
 * and the names are the tools' own, so refusing a look-alike elsewhere costs little.
 */
export const PROTECTED_NAMES: readonly ProtectedName[] = [
  ...GIT_DIR_PROTECTED.map(({ name, why }) => ({ path: `.git/${name}`, depth: "any" as const, why })),
  { path: ".gitmodules", depth: "any", why: "git clones what it names" },
  { path: ".envrc", depth: "any", why: "direnv runs it" },
  // husky sets core.hooksPath to .husky/_, whose stubs run the scripts in .husky/ itself.
  { path: ".husky", depth: "any", why: "husky runs its scripts as git hooks" },
  {
    path: ".pre-commit-config.yaml",
    depth: "any",
    why: "pre-commit runs the commands it names at git commit",
  },
  ...LEFTHOOK_CONFIGS.map((path) => ({
    path,
    depth: "any" as const,
    why: "lefthook runs the commands it names at git commit",
  })),
  // lefthook's `scripts:` live in source_dir (.lefthook/) and source_dir_local (.lefthook-local/).
  { path: ".lefthook", depth: "any", why: "lefthook runs its scripts as git hooks" },
  { path: ".lefthook-local", depth: "any", why: "lefthook runs its scripts as git hooks" },
  { path: ".continue", depth: "root", why: "Continue's configuration" },
  { path: ".mcp.json", depth: "root", why: "MCP servers a client starts" },
  { path: ".claude", depth: "root", why: "Claude Code's configuration" },
  { path: ".vscode", depth: "root", why: "the editor runs tasks it names" },
  { path: ".idea", depth: "root", why: "the editor runs tasks it names" },
];

/** The hook names git runs (githooks(5)): what a core.hooksPath that is a work tree's top protects in it. */
export const GIT_HOOK_NAMES: ReadonlySet<string> = new Set([
  "applypatch-msg",
  "pre-applypatch",
  "post-applypatch",
  "pre-commit",
  "pre-merge-commit",
  "prepare-commit-msg",
  "commit-msg",
  "post-commit",
  "pre-rebase",
  "post-checkout",
  "post-merge",
  "pre-push",
  "pre-receive",
  "update",
  "proc-receive",
  "post-receive",
  "post-update",
  "reference-transaction",
  "push-to-checkout",
  "pre-auto-gc",
  "post-rewrite",
  "sendemail-validate",
  "fsmonitor-watchman",
  "p4-changelist",
  "p4-prepare-changelist",
  "p4-post-changelist",
  "p4-pre-submit",
  "post-index-change",
]);

/**
 * What git needs to take a folder for a repository (its `is_git_directory()`): `HEAD`, and `objects/` plus
 * `refs/` (or a `commondir` naming a folder that has them). A write creating the last of them is refused.
 */
export const GIT_DIR_SHAPE: readonly string[] = ["HEAD", "objects", "refs", "commondir"];

/** Whether a folder holding `names` (lower case) is a git repository folder to git. */
export function isGitDirShape(names: ReadonlySet<string>): boolean {
  return names.has("head") && ((names.has("objects") && names.has("refs")) || names.has("commondir"));
}

/**
 * Why `relative` (slash-separated, inside a folder git takes for a repository) may not be written, or
 * undefined: `config`, `hooks/…` and the rest of {@link GIT_DIR_PROTECTED}, in any case.
 */
export function gitDirChildReason(relative: string): string | undefined {
  const first = relative.toLowerCase().split("/").find((part) => part !== "" && part !== ".");
  const found = GIT_DIR_PROTECTED.find(({ name }) => name === first);
  return found && `its "${found.name}" is protected (${found.why})`;
}

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
