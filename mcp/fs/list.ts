/**
 * fs_list: a compact tree of a folder. Files come from `rg --files` (so .gitignore, .ignore and .rgignore
 * rules are ripgrep's own); folders are derived from their paths; each shown folder is also read to add
 * what ripgrep never lists: empty folders, symlinks, FIFOs/sockets/devices (never opened) and collapsed
 * generated folders (node_modules, .git).
 * @module
 */
import { ToolError, toToolError } from "../../lib/mcp/errors.ts";
import { platform, toSlashes } from "../../lib/platform/mod.ts";
import { listFiles } from "../../lib/ripgrep/files.ts";
import { ignoreScope } from "../../lib/ripgrep/ignore_rules.ts";
import { RIPGREP_HINT } from "../../lib/ripgrep/locate.ts";
import { deniedNote, parseMessages } from "../../lib/ripgrep/messages.ts";
import { capText } from "../../lib/text/cap.ts";
import { formatCount } from "../../lib/text/format.ts";
import type { FsDeps } from "./deps.ts";
import { resolveExisting } from "./resolve.ts";
import { COLLAPSED } from "./visible.ts";
import { addFile, layoutTree, newFolder, plural, renderLines, type TreeFolder } from "./tree.ts";

/** What to list. */
export interface ListRequest {
  path: string;
  depth: number;
  limit: number;
  hidden: boolean;
  all: boolean;
}

const MAX_LINES = 2000;
const COLLAPSED_COUNT_CAP = 10_000;

/** The tree of `request.path` as compact indented text, with a totals line at the end. */
export async function listTree(deps: FsDeps, request: ListRequest, signal?: AbortSignal): Promise<string> {
  const { real, info } = await resolveExisting(deps, request.path, { verb: "list", signal });
  if (!info.isDirectory) {
    throw new ToolError(
      "invalid_argument",
      `Cannot list "${request.path}": it is a file; read it with fs_read`,
    );
  }
  await assertReadable(real, request.path);
  const rg = await deps.ripgrep();
  if (!rg) {
    throw new ToolError("unavailable", `Cannot list "${request.path}": ripgrep not found; ${RIPGREP_HINT}`);
  }
  const root = newFolder(".");
  const tops = [...deps.workspace.roots, ...deps.workspace.allowDirs];
  const { run, paths } = listFiles(rg, {
    cwd: real,
    hidden: request.hidden,
    noIgnore: request.all,
    // The same rules as search-mcp, decided in lib/ripgrep/ignore_rules.ts.
    ...await ignoreScope(real, { tops, cwd: real }),
    globs: COLLAPSED.map((name) => `!${name}`),
    signal,
  });
  let scanned = 0;
  for await (const path of paths) {
    addFile(root, toSlashes(path), request.depth);
    if (++scanned >= deps.limits.listScanFiles) break;
  }
  const exit = await run.exit;
  signal?.throwIfAborted();
  if (exit.code === 2 && scanned === 0) {
    const reason = exit.stderr || "it exited with code 2 (an unreadable folder?)";
    throw new ToolError("internal", `Cannot list "${request.path}": ripgrep failed: ${reason}`);
  }
  const stopped = scanned >= deps.limits.listScanFiles;
  await addExtras(real, root, request);
  const layout = layoutTree(root, { depth: request.depth, limit: request.limit, maxLines: MAX_LINES });
  const sizes = await fileSizes(real, layout.lines.flatMap((line) => (line.file ? [line.file] : [])));
  const shown = deps.workspace.display(real);
  const body = renderLines(layout.lines, sizes);
  const total = `${formatCount(root.fileCount)}${stopped ? "+" : ""} ${plural(root.fileCount, "file")}`;
  const notes = [
    `${formatCount(layout.counts.folders)} ${plural(layout.counts.folders, "folder")} and ${
      formatCount(layout.counts.files)
    } ${plural(layout.counts.files, "file")} shown of ${total} in all`,
  ];
  const { denied } = parseMessages(exit.stderr);
  if (denied.length) notes.push(deniedNote(denied.map(toSlashes)));
  if (stopped) notes.push(`scan stopped at ${formatCount(scanned)} files: counts are lower bounds`);
  if (layout.cut) notes.push(`cut at ${formatCount(MAX_LINES)} lines: lower depth or list a subfolder`);
  if (root.fileCount === 0 && !request.all && (await countEntries(real, 1)).count > 0) {
    notes.push("ignored files are hidden: all=true shows them");
  }
  const text = `${shown === "." ? "./" : `${shown}/`}\n${body}${body ? "\n" : ""}[${notes.join("; ")}]`;
  return capText(text, deps.limits.listChars);
}

/** Reads every expanded folder for entries ripgrep does not list. */
async function addExtras(real: string, root: TreeFolder, request: ListRequest): Promise<void> {
  const jobs: { folder: TreeFolder; path: string; level: number }[] = [{
    folder: root,
    path: real,
    level: 1,
  }];
  const expanded: typeof jobs = [];
  while (jobs.length) {
    const job = jobs.pop()!;
    expanded.push(job);
    if (job.level >= request.depth) continue;
    for (const child of job.folder.folders.values()) {
      jobs.push({ folder: child, path: platform.path.join(job.path, child.name), level: job.level + 1 });
    }
  }
  await inBatches(expanded, 16, async ({ folder, path }) => {
    const entries: Deno.DirEntry[] = [];
    try {
      for await (const entry of Deno.readDir(path)) entries.push(entry);
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!request.hidden && entry.name.startsWith(".")) continue;
      const child = platform.path.join(path, entry.name);
      if (entry.isSymlink) {
        const target = await Deno.readLink(child).catch(() => "?");
        folder.extras.push({ kind: "symlink", name: entry.name, target: toSlashes(target) });
      } else if (entry.isDirectory && COLLAPSED.includes(entry.name)) {
        const { count, capped } = await countEntries(child, COLLAPSED_COUNT_CAP);
        folder.extras.push({ kind: "collapsed", name: entry.name, entries: count, capped });
      } else if (entry.isDirectory && !folder.folders.has(entry.name)) {
        const { count, denied } = await countEntries(child, 1);
        if (denied) folder.extras.push({ kind: "unreadable", name: entry.name });
        else if (count === 0) folder.extras.push({ kind: "empty", name: entry.name });
      } else if (!entry.isFile && !entry.isDirectory) {
        // lstat only: opening a FIFO would block until a writer comes.
        const type = await Deno.lstat(child).then(specialType, () => "special file");
        folder.extras.push({ kind: "special", name: entry.name, type });
      }
    }
  });
}

/** What kind of special file `info` describes. */
function specialType(info: Deno.FileInfo): string {
  if (info.isFifo) return "FIFO";
  if (info.isSocket) return "socket";
  if (info.isCharDevice) return "character device";
  if (info.isBlockDevice) return "block device";
  return "special file";
}

/** Fails with permission_denied when `folder` cannot be read; ripgrep could not even start in it. */
async function assertReadable(folder: string, path: string): Promise<void> {
  try {
    for await (const _ of Deno.readDir(folder)) break;
  } catch (error) {
    throw toToolError(error, `Cannot list "${path}"`);
  }
}

async function countEntries(
  folder: string,
  cap: number,
): Promise<{ count: number; capped: boolean; denied: boolean }> {
  let count = 0;
  try {
    for await (const _ of Deno.readDir(folder)) {
      if (++count >= cap) return { count, capped: true, denied: false };
    }
  } catch (error) {
    // Unreadable: shown with what was counted, and said to be unreadable rather than empty.
    return { count, capped: false, denied: error instanceof Deno.errors.PermissionDenied };
  }
  return { count, capped: false, denied: false };
}

async function fileSizes(root: string, files: string[]): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  await inBatches(files, 32, async (file) => {
    try {
      sizes.set(file, (await Deno.lstat(platform.path.join(root, file))).size);
    } catch {
      // Gone since ripgrep listed it: shown without a size.
    }
  });
  return sizes;
}

async function inBatches<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}
