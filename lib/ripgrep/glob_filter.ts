/**
 * User globs as a filter that only narrows. ripgrep's `--glob` is an override: a path matching a positive
 * glob is listed even when .gitignore, .ignore or the hidden rule exclude it (`--glob '*'` lists
 * `.git/config`). So positive globs never reach ripgrep; they are matched here, on the paths ripgrep's
 * ignore-aware walk yields, with the same gitignore-style semantics. Negated globs that no later positive
 * glob can overrule still go to ripgrep, which then prunes those folders early.
 * @module
 */

import { ToolError } from "../mcp/errors.ts";

/** How a list of globs is applied. */
export interface GlobFilter {
  /** Globs ripgrep may apply itself (all negated): they only ever remove paths. */
  ripgrepGlobs: string[];
  /** Positive globs that name files by their name alone (`*.ts`): safe to pre-select by file type. */
  nameGlobs: string[];
  /** Whether a listed path (relative to ripgrep's cwd, `/` or `\` separators) passes the globs. */
  matches(path: string): boolean;
}

interface CompiledGlob {
  exclude: boolean;
  dirOnly: boolean;
  regex: RegExp;
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
  return globs.findLast((glob) => (isDir || !glob.dirOnly) && glob.regex.test(path));
}

/** `./a/b` → [a, b]; an absolute path loses its root, so unanchored globs still match its tail. */
function relativeParts(path: string): string[] {
  return path.replaceAll("\\", "/").replace(/^[A-Za-z]:\//, "/").split("/").filter((p) => p && p !== ".");
}

function compile(glob: string): CompiledGlob {
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
  return { exclude, dirOnly, regex: new RegExp(`^${toRegex(body, glob)}$`, "u") };
}

/** Glob syntax → regex source: `*`, `?` stay within one path part, `**` spans parts, `[...]`, `{a,b}`. */
function toRegex(glob: string, original: string): string {
  let out = "";
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "\\") {
      i++;
      if (i >= glob.length) throw badGlob(original, 'dangling "\\"');
      out += escape(glob[i]);
    } else if (c === "*" && glob[i + 1] === "*") {
      const atStart = i === 0 || glob[i - 1] === "/";
      const atEnd = i + 2 === glob.length || glob[i + 2] === "/";
      if (atStart && glob[i + 2] === "/") {
        out += "(?:.*/)?";
        i += 2;
      } else if (atStart && atEnd) {
        out += ".*";
        i += 1;
      } else {
        out += "[^/]*";
        i += 1;
      }
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const close = glob.indexOf("]", glob[i + 1] === "!" || glob[i + 1] === "^" ? i + 3 : i + 2);
      if (close < 0) throw badGlob(original, 'unclosed character class; missing "]"');
      let set = glob.slice(i + 1, close);
      if (set.startsWith("!")) set = `^${set.slice(1)}`;
      out += `[${set.replaceAll("\\", "\\\\").replaceAll("[", "\\[")}]`;
      i = close;
    } else if (c === "{") {
      depth++;
      out += "(?:";
    } else if (c === "}" && depth > 0) {
      depth--;
      out += ")";
    } else if (c === "," && depth > 0) out += "|";
    else out += escape(c);
  }
  if (depth > 0) throw badGlob(original, 'unclosed alternate group; missing "}"');
  return out;
}

function badGlob(glob: string, reason: string): ToolError {
  return new ToolError(
    "invalid_argument",
    `Cannot use glob "${glob}": ${reason}; escape literal characters with "\\"`,
  );
}

function escape(c: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(c) ? `\\${c}` : c;
}
