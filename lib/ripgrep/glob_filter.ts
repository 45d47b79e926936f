/**
 * User globs as a filter that only narrows. ripgrep's `--glob` is an override: a path matching a positive
 * glob is listed even when .gitignore, .ignore or the hidden rule exclude it (`--glob '*'` lists
 * `.git/config`). So positive globs never reach ripgrep; they are matched here, on the paths ripgrep's
 * ignore-aware walk yields, with the same gitignore-style semantics. Negated globs that no later positive
 * glob can overrule still go to ripgrep, which then prunes those folders early.
 * @module
 */

import { ToolError } from "../mcp/errors.ts";
import { compileGlob, GlobSyntaxError } from "./glob_match.ts";

/** How a list of globs is applied. */
export interface GlobFilter {
  /** Globs ripgrep may apply itself (all negated): they only ever remove paths. */
  ripgrepGlobs: string[];
  /** Positive globs that name files by their name alone (`*.ts`): safe to pre-select by file type. */
  nameGlobs: string[];
  /** Whether a listed path (relative to ripgrep's cwd, `/` or `\` separators) passes the globs. */
  matches(path: string): boolean;
}

/** One glob, compiled with gitignore's rules (also how ignore-file lines are read: rules_above.ts). */
export interface CompiledGlob {
  /** It started with `!`. */
  exclude: boolean;
  /** It ended with `/`: it matches folders only. */
  dirOnly: boolean;
  /** Whether a `/`-separated path relative to the glob's base matches. */
  test: (path: string) => boolean;
}

/** Compiles `globs` (ripgrep syntax, later globs win, `!` negates); a malformed glob is an invalid_argument. */
export function globFilter(globs: string[]): GlobFilter {
  const compiled = globs.filter((glob) => glob !== "").map(compile);
  const positives = compiled.filter((glob) => !glob.exclude).length;
  const lastPositive = compiled.findLastIndex((glob) => !glob.exclude);
  const ripgrepGlobs = globs.filter((glob, i) => glob.startsWith("!") && i > lastPositive);
  const nameGlobs = globs.filter((glob) => !glob.startsWith("!"));
  // ripgrep's `--type-add name:glob` matches the file name only, and reads `:` as its own separator.
  const byName = nameGlobs.every((glob) => !/[/\\:]/.test(glob));
  return {
    ripgrepGlobs,
    nameGlobs: byName ? nameGlobs : [],
    matches(path: string): boolean {
      if (compiled.length === 0) return true;
      const parts = relativeParts(path);
      // A folder whose last matching glob is negated is pruned, as ripgrep's walk prunes it.
      for (let depth = 1; depth < parts.length; depth++) {
        const folder = parts.slice(0, depth).join("/");
        if (lastMatch(compiled, folder, true)?.exclude) return false;
      }
      const own = lastMatch(compiled, parts.join("/"), false);
      return own ? !own.exclude : positives === 0;
    },
  };
}

function lastMatch(globs: CompiledGlob[], path: string, isDir: boolean): CompiledGlob | undefined {
  return globs.findLast((glob) => (isDir || !glob.dirOnly) && glob.test(path));
}

/** `./a/b` → [a, b]; an absolute path loses its root, so unanchored globs still match its tail. */
function relativeParts(path: string): string[] {
  return path.replaceAll("\\", "/").replace(/^[A-Za-z]:\//, "/").split("/").filter((p) => p && p !== ".");
}

/** Compiles one glob; a malformed one is an invalid_argument ToolError. */
export function compile(glob: string): CompiledGlob {
  let body = glob;
  const exclude = body.startsWith("!");
  if (exclude) body = body.slice(1);
  else if (body.startsWith("\\!")) body = body.slice(1);
  const dirOnly = body.endsWith("/") && !body.endsWith("\\/");
  if (dirOnly) body = body.replace(/\/+$/, "");
  // gitignore rule: a glob with a `/` before its end is anchored to the root; else it matches at any depth.
  const anchored = body.includes("/");
  if (body.startsWith("/")) body = body.slice(1);
  if (!anchored && !body.startsWith("**/")) body = `**/${body}`;
  // `dir/**` matches what is inside the folder, not the folder itself.
  if (body.endsWith("/**")) body = `${body}/*`;
  try {
    return { exclude, dirOnly, test: compileGlob(body) };
  } catch (error) {
    if (error instanceof GlobSyntaxError) throw badGlob(glob, error.message);
    throw error;
  }
}

function badGlob(glob: string, reason: string): ToolError {
  return new ToolError(
    "invalid_argument",
    `Cannot use glob "${glob}": ${reason}; escape literal characters with "\\"`,
  );
}
