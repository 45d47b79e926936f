/** fs_stat: the facts about one path, as structured data. */
import { ToolError, toToolError } from "../../lib/mcp/errors.ts";
import { platform } from "../../lib/platform/mod.ts";
import type { FsDeps } from "./deps.ts";
import { resolveExisting } from "./resolve.ts";
import { countFileLines, countLines, crOnlyFile } from "./scan.ts";
import { sniff, SNIFF_BYTES } from "./sniff.ts";

/** What fs_stat returns. */
export interface StatResult {
  /** The real path, relative to the workspace when inside it. */
  path: string;
  type: "file" | "folder" | "other";
  size: number;
  /** Line count of a text file up to the stat line limit (10 MB). */
  lines?: number;
  /** `text`, `text (UTF-8 BOM)`, or what a binary is: `PNG image`, `ELF executable`. */
  content?: string;
  /** Entries directly inside a folder. */
  entries?: number;
  /** ISO 8601, or null where the OS does not say. */
  mtime: string | null;
  /** Permission bits in octal (`644`), or null on Windows. */
  mode: string | null;
  /** The link's target as stored, when the given path is a symlink. */
  symlink?: string;
}

/** Stats `path` (symlinks followed, and reported). */
export async function statPath(deps: FsDeps, path: string, signal?: AbortSignal): Promise<StatResult> {
  const { real, info } = await resolveExisting(deps, path, { verb: "stat", signal });
  const result: StatResult = {
    path: deps.workspace.display(real),
    type: info.isFile ? "file" : info.isDirectory ? "folder" : "other",
    size: info.size,
    mtime: info.mtime?.toISOString() ?? null,
    mode: info.mode === null ? null : (info.mode & 0o7777).toString(8),
  };
  const symlink = await linkTarget(deps, path, real);
  if (symlink !== undefined) result.symlink = symlink;
  try {
    if (info.isFile) await describeFile(real, info.size, deps.limits.statLineBytes, result, signal);
    if (info.isDirectory) result.entries = await countEntries(real);
  } catch (error) {
    if (error instanceof ToolError) throw error;
    throw toToolError(error, `Cannot stat "${path}"`);
  }
  return result;
}

async function describeFile(
  real: string,
  size: number,
  lineBytes: number,
  result: StatResult,
  signal?: AbortSignal,
): Promise<void> {
  // Every async file call is a trip through Deno's blocking thread pool (tens of µs, more on a busy
  // machine): a file the sniffer would read whole anyway is read in one call and counted in memory.
  if (size <= SNIFF_BYTES) {
    const bytes = await Deno.readFile(real, { signal });
    const kind = sniff(bytes.subarray(0, SNIFF_BYTES));
    if (kind.kind !== "text") {
      result.content = kind.label;
      return;
    }
    result.content = kind.bom ? "text (UTF-8 BOM)" : "text";
    if (size <= lineBytes) result.lines = countLines(bytes);
    return;
  }
  using file = await Deno.open(real, { read: true });
  const head = new Uint8Array(SNIFF_BYTES);
  const read = (await file.read(head)) ?? 0;
  const kind = sniff(head.subarray(0, read));
  if (kind.kind !== "text") {
    result.content = kind.label;
    return;
  }
  result.content = kind.bom ? "text (UTF-8 BOM)" : "text";
  if (size > lineBytes) return;
  result.lines = await countFileLines(file, await crOnlyFile(file, head.subarray(0, read)), signal);
}

async function linkTarget(deps: FsDeps, path: string, real: string): Promise<string | undefined> {
  const given = platform.path.resolve(deps.workspace.primary, path);
  // A path that is its own real path has no symlink anywhere in it: no lstat needed.
  if (given === real) return undefined;
  try {
    if (!(await Deno.lstat(given)).isSymlink) return undefined;
    return await Deno.readLink(given);
  } catch {
    return undefined;
  }
}

async function countEntries(folder: string): Promise<number> {
  let count = 0;
  for await (const _ of Deno.readDir(folder)) count++;
  return count;
}
