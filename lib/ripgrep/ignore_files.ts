/**
 * A cautious reading of the ignore files ripgrep honours, for a server that cannot run ripgrep (edit-mcp):
 * which names in a folder may be ignored. It reads `.gitignore`, `.ignore` and `.rgignore` from the folder up
 * to its repository's root (or the filesystem root outside one) and `.git/info/exclude`, and applies every
 * pattern but no negation (`!x`), ignoring case: a name ripgrep hides is never let through; at worst one it
 * shows is held back. Its use: a "did you mean" must not name a file a listing hides.
 * @module
 */
import { platform, toSlashes } from "../platform/mod.ts";
import { compileGlob } from "./glob_match.ts";
import { pathExists } from "../fs/exists.ts";

/** An entry of the folder: its name, and whether it is a folder (patterns ending in `/` match only those). */
export interface NamedEntry {
  name: string;
  isDirectory: boolean;
}

interface Rule {
  /** The folder of the ignore file: patterns are relative to it. */
  base: string;
  test: (path: string, isDir: boolean) => boolean;
}

const IGNORE_FILES = [".gitignore", ".ignore", ".rgignore"];

/** The names of `entries` (of `folder`) that an ignore file may hide. */
export async function ignoredNames(folder: string, entries: readonly NamedEntry[]): Promise<Set<string>> {
  const rules = await rulesAbove(folder);
  const ignored = new Set<string>();
  for (const entry of entries) {
    if (rules.some((rule) => hides(rule, platform.path.join(folder, entry.name), entry.isDirectory))) {
      ignored.add(entry.name);
    }
  }
  return ignored;
}

/** Whether `rule` hides `path` or one of the folders between its base and `path`. */
function hides(rule: Rule, path: string, isDir: boolean): boolean {
  const parts = toSlashes(platform.path.relative(rule.base, path)).toLowerCase().split("/");
  return parts.some((_, i) => rule.test(parts.slice(0, i + 1).join("/"), i < parts.length - 1 || isDir));
}

/**
 * Unlike the lookups of lib/workspace/trusted_above.ts this walk reads ignore files another user may have
 * planted above the workspace (in /tmp): they can only hold more names back, never show one.
 */
async function rulesAbove(folder: string): Promise<Rule[]> {
  const rules: Rule[] = [];
  let dir = folder;
  while (true) {
    const files = IGNORE_FILES.map((name) => platform.path.join(dir, name));
    const repoRoot = await pathExists(platform.path.join(dir, ".git"));
    if (repoRoot) files.push(platform.path.join(dir, ".git", "info", "exclude"));
    const texts = await Promise.all(files.map((file) => Deno.readTextFile(file).catch(() => "")));
    for (const line of texts.join("\n").split(/\r?\n/)) {
      const test = compilePattern(line);
      if (test) rules.push({ base: dir, test });
    }
    const parent = platform.path.dirname(dir);
    // Inside a repository git (and ripgrep) read no .gitignore above its root.
    if (repoRoot || parent === dir) return rules;
    dir = parent;
  }
}

/** One gitignore line as a matcher of lower-cased `/`-separated paths; null for blanks, comments, negations. */
function compilePattern(line: string): ((path: string, isDir: boolean) => boolean) | null {
  let body = line.replace(/(?<!\\)\s+$/, "").toLowerCase();
  if (body === "" || body.startsWith("#") || body.startsWith("!")) return null;
  if (body.startsWith("\\#") || body.startsWith("\\!")) body = body.slice(1);
  const dirOnly = body.endsWith("/");
  body = body.replace(/\/+$/, "");
  // gitignore: a pattern with a `/` before its end is anchored to its file's folder; else it matches any depth.
  const anchored = body.includes("/");
  if (body.startsWith("/")) body = body.slice(1);
  if (body === "") return null;
  if (!anchored && !body.startsWith("**/")) body = `**/${body}`;
  if (body.endsWith("/**")) body = `${body}/*`;
  try {
    const test = compileGlob(body);
    return (path, isDir) => (isDir || !dirOnly) && test(path);
  } catch {
    return null; // A pattern git would not parse either.
  }
}
