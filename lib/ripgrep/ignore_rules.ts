/**
 * The one place that decides which ignore rules ripgrep applies, shared by search-mcp and fs-mcp so
 * search_grep, search_glob and fs_list always agree on what is ignored.
 * @module
 */
import { platform } from "../platform/mod.ts";
import type { GlobFilter } from "./glob_filter.ts";
import { lookUpward, repoLevel } from "../workspace/trusted_above.ts";
import { rulesAbove } from "./rules_above.ts";

/** What a run may see. */
export interface IgnoreRules {
  /** Include hidden files and folders (never `.git/` itself). */
  hidden?: boolean;
  /** Ignore .gitignore/.ignore/.rgignore rules. */
  noIgnore?: boolean;
  /** The walked folders lie in a git repository (see {@link ignoreScope}). */
  inGitRepo: boolean;
  /**
   * ripgrep may read the ignore files above the walked folders itself: every folder up to the filesystem
   * root is trusted (lib/workspace/trusted_above.ts). Otherwise it reads none, and `above` stands in for
   * those of the trusted folders.
   */
  trustedParents?: boolean;
  /** The user's globs, compiled: only their narrowing part reaches ripgrep. */
  globs?: GlobFilter;
  /** The run also selects `--type`s: then name globs are not pre-selected as a type (types add up). */
  types?: boolean;
  /**
   * The ignore files above the walked folder that apply but ripgrep does not read (`--no-ignore-parent`),
   * as a filter of listed paths (see {@link ignoreScope}).
   */
  above?: (path: string) => boolean;
}

/** A ripgrep file type name unlikely to clash with a built-in one. */
const GLOB_TYPE = "continueglob";

/**
 * The ripgrep flags for `rules`. Inside a git repository .gitignore files count from the repository root
 * down, as git reads them, and a .gitignore above the root is not read. Outside one, `--no-require-git`
 * still honours the workspace's .gitignore files (a tarball, a copied subfolder). `--no-ignore-parent`
 * keeps ripgrep from the ignore files above the walked folder unless all lie in trusted folders
 * (`trustedParents`): another user's `.ignore` of `*` in /tmp would hide the whole workspace.
 */
export function ignoreRuleArgs(rules: IgnoreRules): string[] {
  const args: string[] = [];
  if (rules.hidden) args.push("--hidden");
  if (rules.noIgnore) args.push("--no-ignore");
  if (!rules.inGitRepo) args.push("--no-require-git");
  if (!rules.inGitRepo || !rules.trustedParents) args.push("--no-ignore-parent");
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

/** How ripgrep's ignore rules apply to a walk: {@link IgnoreRules}' `inGitRepo`, `trustedParents`, `above`. */
export interface IgnoreScope {
  inGitRepo: boolean;
  trustedParents?: boolean;
  above?: (path: string) => boolean;
}

/** Where a walk is: the workspace's folders (roots and allowed folders) and ripgrep's cwd. */
export interface ScopeOptions {
  tops: readonly string[];
  cwd: string;
}

/**
 * The ignore scope of a walk of `folder` (absolute, real). Inside a repository whose folders above are all
 * trusted, ripgrep reads the ignore files above `folder` itself. Otherwise it reads none, and those it
 * would have read in the trusted folders (lib/workspace/trusted_above.ts) are read here: inside a
 * repository from the highest trusted folder down (.gitignore only from the repository root down, with its
 * `.git/info/exclude`); outside one only those inside the workspace, from the outermost top holding
 * `folder` down (a dotfiles `~/.gitignore` of `*` must not hide a workspace that is no repository).
 */
export async function ignoreScope(
  folder: string,
  options: ScopeOptions & { trustParents?: boolean },
): Promise<IgnoreScope> {
  const upward = await lookUpward(folder, options.tops);
  const repo = repoLevel(upward);
  if (repo && upward.whole && options.trustParents !== false) {
    return { inGitRepo: true, trustedParents: true };
  }
  if (repo) {
    const top = upward.levels[upward.levels.length - 1].folder;
    return {
      inGitRepo: true,
      above: await rulesAbove({ folder, top, gitRoot: repo.folder, cwd: options.cwd }),
    };
  }
  const holding = options.tops.filter((top) => platform.isInside(folder, top));
  // The outermost: with nested roots, the folders between them are inside the workspace too.
  const top = holding.sort((a, b) => a.length - b.length)[0];
  if (!top) return { inGitRepo: false };
  return { inGitRepo: false, above: await rulesAbove({ folder, top, cwd: options.cwd }) };
}

/**
 * The scope of one ripgrep run over several `folders`: ripgrep's flags hold for all, so it reads the
 * ignore files above them only when it may for each; otherwise each folder's come back by its own filter.
 */
export async function ignoreScopeOf(folders: readonly string[], options: ScopeOptions): Promise<IgnoreScope> {
  const scopes = await Promise.all(folders.map((folder) => ignoreScope(folder, options)));
  if (scopes.every((scope) => scope.trustedParents)) return { inGitRepo: true, trustedParents: true };
  const read = await Promise.all(
    scopes.map((scope, i) =>
      scope.trustedParents ? ignoreScope(folders[i], { ...options, trustParents: false }) : scope
    ),
  );
  const filters = read.flatMap((scope) => scope.above ? [scope.above] : []);
  return {
    inGitRepo: scopes.some((scope) => scope.inGitRepo),
    above: filters.length ? (path) => filters.every((keep) => keep(path)) : undefined,
  };
}
