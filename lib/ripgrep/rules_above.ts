/**
 * Outside a git repository ripgrep runs with `--no-ignore-parent`, so ignore files above the workspace (a
 * dotfiles `~/.gitignore` of `*`) cannot hide it. That also drops the workspace's own ignore files in the
 * folders between its root and a subfolder searched alone; this reads those and filters the listed paths
 * as ripgrep would have: `.rgignore` before `.ignore` before `.gitignore`, the deepest folder with a
 * matching line decides, the last matching line of a file wins, an ignored folder hides all below it.
 * One difference: a `!` line in a file below the searched folder cannot bring back what these exclude.
 * @module
 */
import { platform } from "../platform/mod.ts";
import { compile, type CompiledGlob } from "./glob_filter.ts";

/** The ignore files ripgrep reads, strongest first. */
const KINDS = [".rgignore", ".ignore", ".gitignore"];

/** Where a walk starts and which folders' ignore files it must still honour. */
export interface AboveOptions {
  /** The walked folder (absolute, real). */
  folder: string;
  /** The outermost workspace folder holding it: ignore files are read from here down to `folder`, exclusive. */
  top: string;
  /** ripgrep's cwd: listed paths are relative to it (or absolute). */
  cwd: string;
}

/**
 * A filter of listed paths by the ignore files of the folders from `top` down to `folder` (exclusive), or
 * undefined when there are none (`folder` is `top`, or no such file exists).
 */
export async function rulesAbove(options: AboveOptions): Promise<((path: string) => boolean) | undefined> {
  const folders = between(options.top, options.folder);
  // Per kind, deepest folder first.
  const kinds = await Promise.all(KINDS.map(async (kind) => {
    const read = await Promise.all(
      folders.map(async (folder) => ({ folder, lines: await readRules(folder, kind) })),
    );
    return read.filter((rules) => rules.lines.length).reverse();
  }));
  if (kinds.every((rules) => rules.length === 0)) return undefined;
  const folderIgnored = new Map<string, boolean>();
  const ignored = (path: string, isDir: boolean) => {
    for (const rules of kinds) {
      for (const { folder, lines } of rules) {
        const relative = platform.path.relative(folder, path).replaceAll("\\", "/");
        const match = lines.findLast((line) => (isDir || !line.dirOnly) && line.test(relative));
        if (match) return !match.exclude;
      }
    }
    return false;
  };
  return (listed) => {
    const path = platform.path.resolve(options.cwd, listed);
    if (!platform.isInside(path, options.folder) || path === options.folder) return true;
    const parts = platform.path.relative(options.folder, path).split(/[/\\]/);
    let current = options.folder;
    for (const [index, part] of parts.entries()) {
      current = platform.path.join(current, part);
      if (index === parts.length - 1) return !ignored(current, false);
      let hidden = folderIgnored.get(current);
      if (hidden === undefined) folderIgnored.set(current, hidden = ignored(current, true));
      if (hidden) return false;
    }
    return true;
  };
}

/** `top` and the folders below it down to `folder`'s parent; none when `folder` is not below `top`. */
function between(top: string, folder: string): string[] {
  if (folder === top || !platform.isInside(folder, top)) return [];
  const folders: string[] = [];
  for (let current = platform.path.dirname(folder);; current = platform.path.dirname(current)) {
    folders.unshift(current);
    if (current === top || platform.path.dirname(current) === current) break;
  }
  return folders;
}

/** An ignore file's lines as compiled globs; a missing or unreadable file has none, a bad line is skipped. */
async function readRules(folder: string, kind: string): Promise<CompiledGlob[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(platform.path.join(folder, kind));
  } catch {
    return [];
  }
  const rules: CompiledGlob[] = [];
  for (const raw of text.split("\n")) {
    // gitignore: `#` starts a comment, trailing spaces go unless escaped.
    const line = raw.replace(/\r$/, "").replace(/(?<!\\)\s+$/, "");
    if (line === "" || line.startsWith("#")) continue;
    try {
      rules.push(compile(line));
    } catch {
      // ripgrep skips a line it cannot parse, with a warning.
    }
  }
  return rules;
}
