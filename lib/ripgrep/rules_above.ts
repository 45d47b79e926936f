/**
 * When ripgrep runs with `--no-ignore-parent` (outside a git repository, or with a folder above the
 * workspace that another user could write in: ignore_rules.ts), ignore files above the walked folder cannot
 * hide it. That also drops the ones that should apply: the workspace's own in the folders between its root
 * and a subfolder searched alone, and a repository's above its subfolder. This reads those and filters the
 * listed paths as ripgrep would have: `.rgignore` before `.ignore` before `.gitignore` before
 * `.git/info/exclude`, the deepest folder with a matching line decides, the last matching line of a file
 * wins, an ignored folder hides all below it. One difference: a `!` line in a file below the searched
 * folder cannot bring back what these exclude.
 * @module
 */
import { platform } from "../platform/mod.ts";
import { type IgnoreLine, ignoreLine, reachesUnder } from "./ignore_line.ts";

/** The ignore files ripgrep reads, strongest first; the last only in a repository's root. */
const KINDS = [".rgignore", ".ignore", ".gitignore", ".git/info/exclude"];

/** Where a walk starts and which folders' ignore files it must still honour. */
export interface AboveOptions {
  /** The walked folder (absolute, real). */
  folder: string;
  /** The highest folder whose ignore files apply: they are read from here down to `folder`, exclusive. */
  top: string;
  /** ripgrep's cwd: listed paths are relative to it (or absolute). */
  cwd: string;
  /** The root of the repository `folder` lies in: no .gitignore above it counts, its info/exclude does. */
  gitRoot?: string;
}

/**
 * A filter of listed paths by the ignore files of the folders from `top` down to `folder` (exclusive), or
 * undefined when there are none (`folder` is `top`, or no such file exists).
 */
export async function rulesAbove(options: AboveOptions): Promise<((path: string) => boolean) | undefined> {
  const folders = between(options.top, options.folder);
  // Per kind, deepest folder first; each folder with the walked folder's path from it (`/`-separated).
  const slashes = (path: string) => path.replaceAll("\\", "/");
  const kinds = await Promise.all(KINDS.map(async (kind) => {
    const read = await Promise.all(
      folders.filter((folder) => applies(kind, folder, options)).map(async (folder) => {
        const down = slashes(platform.path.relative(folder, options.folder));
        return { down, lines: (await readRules(folder, kind)).filter((line) => reachesUnder(line, down)) };
      }),
    );
    return read.filter((rules) => rules.lines.length).reverse();
  }));
  if (kinds.every((rules) => rules.length === 0)) return undefined;
  // `below` is a path under the walked folder, `/`-separated; no path module in this loop: it runs per file.
  const ignored = (below: string, isDir: boolean) => {
    const name = below.slice(below.lastIndexOf("/") + 1);
    for (const rules of kinds) {
      for (const { down, lines } of rules) {
        const match = lines.findLast((line) =>
          (isDir || !line.dirOnly) && line.test(line.onName ? name : `${down}/${below}`)
        );
        if (match) return !match.whitelist;
      }
    }
    return false;
  };
  const folderIgnored = new Map<string, boolean>();
  const under = listedUnder(options);
  return (listed) => {
    const below = under(slashes(listed));
    if (below === null) return true;
    const parts = below.split("/");
    for (let end = 1; end < parts.length; end++) {
      const folder = parts.slice(0, end).join("/");
      let hidden = folderIgnored.get(folder);
      if (hidden === undefined) folderIgnored.set(folder, hidden = ignored(folder, true));
      if (hidden) return false;
    }
    return !ignored(below, false);
  };
}

/**
 * Turns a listed path (`/`-separated, relative to the cwd or absolute) into its part below the walked
 * folder, or null when it is not below it (a file named as path). ripgrep prints the walked folder as it was
 * given, so a prefix test does.
 */
function listedUnder(options: AboveOptions): (listed: string) => string | null {
  const absolute = `${options.folder.replaceAll("\\", "/").replace(/\/$/, "")}/`;
  const relative = options.folder === options.cwd
    ? ""
    : `${platform.path.relative(options.cwd, options.folder).replaceAll("\\", "/")}/`;
  return (listed) => {
    const path = listed.replace(/^(?:\.\/)+/, "");
    const rest = path.startsWith(absolute)
      ? path.slice(absolute.length)
      : relative === "" || path.startsWith(relative)
      ? path.slice(relative.length)
      : null;
    return rest === null || rest === "" || platform.path.isAbsolute(rest) || rest.startsWith("../")
      ? null
      : rest;
  };
}

/** Whether the ignore file `kind` of `folder` counts: git reads no .gitignore above a repository's root. */
function applies(kind: string, folder: string, options: AboveOptions): boolean {
  const { gitRoot } = options;
  if (kind === ".gitignore") return gitRoot === undefined || platform.isInside(folder, gitRoot);
  if (kind === ".git/info/exclude") {
    return gitRoot !== undefined && platform.isInside(gitRoot, folder) && platform.isInside(folder, gitRoot);
  }
  return true;
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

/** An ignore file's lines as rules; a missing or unreadable file has none, a bad line is skipped. */
async function readRules(folder: string, kind: string): Promise<IgnoreLine[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(platform.path.join(folder, kind));
  } catch {
    return [];
  }
  const rules: IgnoreLine[] = [];
  for (const raw of text.split("\n")) {
    // gitignore: `#` starts a comment, trailing spaces go unless escaped.
    const line = raw.replace(/\r$/, "").replace(/(?<!\\)\s+$/, "");
    if (line === "" || line.startsWith("#")) continue;
    try {
      rules.push(ignoreLine(line));
    } catch {
      // ripgrep skips a line it cannot parse, with a warning.
    }
  }
  return rules;
}
