/** The folder tree fs_list shows: built from ripgrep's file list, then rendered with per-folder cuts. */
import { formatCount, formatSize } from "../../lib/text/format.ts";
import { showPath } from "../../lib/workspace/path_text.ts";

/** `file2` before `file10`, case-insensitive; built at first use, as loading ICU data slows a cold start. */
let natural: Intl.Collator | undefined;

/** A folder of the tree; below the shown depth only its file count is kept. */
export interface TreeFolder {
  name: string;
  folders: Map<string, TreeFolder>;
  files: string[];
  /** Files anywhere under it, as ripgrep listed them. */
  fileCount: number;
  /** Entries the folder has that ripgrep does not list: collapsed, empty, symlinked or special. */
  extras: TreeExtra[];
}

/** An entry found by reading the folder itself. */
export type TreeExtra =
  | { kind: "collapsed"; name: string; entries: number; capped: boolean }
  | { kind: "empty"; name: string }
  | { kind: "unreadable"; name: string }
  | { kind: "symlink"; name: string; target: string }
  /** A FIFO, socket or device: listed with its type, never opened. */
  | { kind: "special"; name: string; type: string };

/** A new, empty folder node. */
export function newFolder(name: string): TreeFolder {
  return { name, folders: new Map(), files: [], fileCount: 0, extras: [] };
}

/** Adds a file path (`/`-separated, relative to the root) to the tree, materialising `depth` levels. */
export function addFile(root: TreeFolder, relative: string, depth: number): void {
  const parts = relative.split("/");
  let folder = root;
  folder.fileCount++;
  for (let level = 1; level < parts.length; level++) {
    if (level > depth) return;
    let child = folder.folders.get(parts[level - 1]);
    if (!child) {
      child = newFolder(parts[level - 1]);
      folder.folders.set(child.name, child);
    }
    child.fileCount++;
    folder = child;
  }
  if (parts.length <= depth) folder.files.push(parts.at(-1)!);
}

/** One line of the rendered tree before sizes are known. */
export interface TreeLine {
  level: number;
  text: string;
  /** Path (relative to the root) of a shown file, whose size is appended. */
  file?: string;
}

/** Counts of what the rendering shows. */
export interface TreeCounts {
  folders: number;
  files: number;
}

/** Lays the tree out depth-first: folders first, then files, each folder cut at `limit` entries. */
export function layoutTree(
  root: TreeFolder,
  options: { depth: number; limit: number; maxLines: number },
): { lines: TreeLine[]; counts: TreeCounts; cut: boolean } {
  const lines: TreeLine[] = [];
  const counts: TreeCounts = { folders: 0, files: 0 };
  let cut = false;
  const visit = (folder: TreeFolder, level: number, prefix: string) => {
    type Entry = { sortKey: string; render: () => void };
    const entries: Entry[] = [];
    for (const child of folder.folders.values()) {
      entries.push({
        sortKey: `0${child.name.toLowerCase()}`,
        render: () => {
          counts.folders++;
          const expanded = level < options.depth;
          const note = expanded
            ? ""
            : `  (${formatCount(child.fileCount)} ${plural(child.fileCount, "file")})`;
          lines.push({ level, text: `${showPath(child.name)}/${note}` });
          if (expanded) visit(child, level + 1, `${prefix}${child.name}/`);
        },
      });
    }
    for (const extra of folder.extras) {
      entries.push({
        sortKey: `${extra.kind === "symlink" || extra.kind === "special" ? 1 : 0}${extra.name.toLowerCase()}`,
        render: () => lines.push({ level, text: renderExtra(extra) }),
      });
    }
    for (const name of folder.files) {
      entries.push({
        sortKey: `1${name.toLowerCase()}`,
        render: () => {
          counts.files++;
          lines.push({ level, text: showPath(name), file: `${prefix}${name}` });
        },
      });
    }
    natural ??= new Intl.Collator("en", { numeric: true, sensitivity: "base" });
    const order = natural;
    entries.sort((a, b) => order.compare(a.sortKey, b.sortKey));
    for (const [i, entry] of entries.entries()) {
      if (lines.length >= options.maxLines) {
        cut = true;
        return;
      }
      if (i >= options.limit) {
        lines.push({ level, text: `(+${formatCount(entries.length - i)} more)` });
        return;
      }
      entry.render();
    }
  };
  visit(root, 1, "");
  return { lines, counts, cut };
}

/** The text of the laid-out lines, with file sizes from `sizes` (keyed by relative path). */
export function renderLines(lines: TreeLine[], sizes: Map<string, number>): string {
  return lines.map((line) => {
    const size = line.file === undefined ? undefined : sizes.get(line.file);
    const suffix = size === undefined ? "" : `  ${formatSize(size)}`;
    return `${"  ".repeat(line.level)}${line.text}${suffix}`;
  }).join("\n");
}

function renderExtra(extra: TreeExtra): string {
  const name = showPath(extra.name);
  switch (extra.kind) {
    case "collapsed":
      return `${name}/  (${formatCount(extra.entries)}${extra.capped ? "+" : ""} ${
        plural(extra.entries, "entry", "entries")
      }, collapsed)`;
    case "empty":
      return `${name}/  (empty)`;
    case "unreadable":
      return `${name}/  (unreadable: permission denied)`;
    case "symlink":
      return `${name} -> ${extra.target}`;
    case "special":
      return `${name}  (${extra.type})`;
  }
}

/** `1 file`, `2 files`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}
