/**
 * The one place that decides which ignore rules ripgrep applies, shared by search-mcp and fs-mcp so
 * search_grep, search_glob and fs_list always agree on what is ignored.
 * @module
 */
import { platform } from "../platform/mod.ts";
import type { GlobFilter } from "./glob_filter.ts";
import { firstExisting } from "../fs/exists.ts";
import { rulesAbove } from "./rules_above.ts";

/** What a run may see. */
export interface IgnoreRules {
  /** Include hidden files and folders (never `.git/` itself). */
  hidden?: boolean;
  /** Ignore .gitignore/.ignore/.rgignore rules. */
  noIgnore?: boolean;
  /** The walked folders lie in a git repository (see {@link insideGitRepo}). */
  inGitRepo: boolean;
  /** The user's globs, compiled: only their narrowing part reaches ripgrep. */
  globs?: GlobFilter;
  /** The run also selects `--type`s: then name globs are not pre-selected as a type (types add up). */
  types?: boolean;
  /**
   * Outside a repository: the workspace's ignore files above the walked folder, which ripgrep does not read
   * there (`--no-ignore-parent`), as a filter of listed paths (see {@link ignoreScope}).
   */
  above?: (path: string) => boolean;
}

/** A ripgrep file type name unlikely to clash with a built-in one. */
const GLOB_TYPE = "continueglob";

/**
 * The ripgrep flags for `rules`. Inside a git repository ripgrep's default applies: .gitignore files count
 * from the repository root down, as git reads them, and a .gitignore above the root is not read. Outside
 * one, `--no-require-git` still honours the workspace's .gitignore files (a tarball, a copied subfolder),
 * and `--no-ignore-parent` keeps ignore files above the walked folder out: a dotfiles `~/.gitignore` of `*`
 * would hide the whole workspace (those between the workspace root and the folder come back by `above`).
 */
export function ignoreRuleArgs(rules: IgnoreRules): string[] {
  const args: string[] = [];
  if (rules.hidden) args.push("--hidden");
  if (rules.noIgnore) args.push("--no-ignore");
  if (!rules.inGitRepo) args.push("--no-require-git", "--no-ignore-parent");
  for (const glob of rules.globs?.ripgrepGlobs ?? []) args.push("--glob", glob);
  // Last, and only ever narrowing: never the repository's own database (a path may still name it).
  args.push("--glob", "!.git/");
  // A type narrows after the ignore rules (unlike a glob), so ripgrep skips files the globs will drop.
  // A type match bypasses the hidden rule, though: matching paths are still filtered by `hiddenPart`.
  const names = rules.types ? [] : rules.globs?.nameGlobs ?? [];
  if (names.length) {
    for (const glob of names) args.push("--type-add", `${GLOB_TYPE}:${glob}`);
    args.push("--type", GLOB_TYPE);
  }
  return args;
}

/**
 * The filter that completes `ignoreRuleArgs` on listed paths: the positive globs, and the hidden rule a
 * type match skips. `explicit` paths (files named as ripgrep arguments) are kept whatever their name.
 */
export function keepListed(rules: IgnoreRules, explicit: string[] = []): (path: string) => boolean {
  const typed = !rules.types && (rules.globs?.nameGlobs.length ?? 0) > 0;
  const above = rules.noIgnore ? undefined : rules.above;
  return (path) =>
    (rules.globs?.matches(path) ?? true) &&
    (rules.hidden || !typed || !hiddenName(path) || explicit.includes(path)) &&
    (!above || explicit.includes(path) || above(path));
}

function hiddenName(path: string): boolean {
  const name = path.split(/[/\\]/).at(-1) ?? "";
  return name.startsWith(".") && name !== "." && name !== "..";
}

/** Whether any of `folders` (absolute) has a `.git` file or folder at or above it. */
export async function insideGitRepo(folders: string[]): Promise<boolean> {
  for (const folder of folders) {
    const candidates: string[] = [];
    let current = folder;
    while (true) {
      candidates.push(platform.path.join(current, ".git"));
      const parent = platform.path.dirname(current);
      if (parent === current) break;
      current = parent;
    }
    if (await firstExisting(candidates) >= 0) return true;
  }
  return false;
}

/** How ripgrep's ignore rules apply to one walked folder: {@link IgnoreRules}' `inGitRepo` and `above`. */
export interface IgnoreScope {
  inGitRepo: boolean;
  above?: (path: string) => boolean;
}

/**
 * The ignore scope of a walk of `folder` (absolute, real) in the workspace whose folders (roots and allowed
 * folders) are `tops`, with ripgrep run in `cwd`. Outside a repository only ignore files inside the
 * workspace apply: those between the outermost top holding `folder` and `folder` are read here.
 */
export async function ignoreScope(
  folder: string,
  options: { tops: readonly string[]; cwd: string },
): Promise<IgnoreScope> {
  if (await insideGitRepo([folder])) return { inGitRepo: true };
  const holding = options.tops.filter((top) => platform.isInside(folder, top));
  // The outermost: with nested roots, the folders between them are inside the workspace too.
  const top = holding.sort((a, b) => a.length - b.length)[0];
  if (!top) return { inGitRepo: false };
  return { inGitRepo: false, above: await rulesAbove({ folder, top, cwd: options.cwd }) };
}
