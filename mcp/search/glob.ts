/** search_glob's engine: `rg --files` with globs, sorted newest first or by path, one page and a total. */
import { ToolError } from "../../lib/mcp/errors.ts";
import { listFiles } from "../../lib/ripgrep/files.ts";
import type { Ripgrep } from "../../lib/ripgrep/locate.ts";
import { deniedNote, parseMessages } from "../../lib/ripgrep/messages.ts";
import { formatCount } from "../../lib/text/format.ts";
import { showPath } from "../../lib/workspace/path_text.ts";
import { timeoutNote } from "./timeout.ts";

/** A glob request, validated, with its path resolved. */
export interface GlobRequest {
  patterns: string[];
  /** Path arguments for ripgrep, relative to `cwd` (`.` for the root) or absolute. */
  paths: string[];
  /** The searched path as shown to the model. */
  where: string;
  limit: number;
  offset?: number;
  sort?: "mtime" | "path";
  hidden?: boolean;
  noIgnore?: boolean;
  /** The searched paths lie in a git repository (`ignoreScope`); default false. */
  inGitRepo?: boolean;
  /** ripgrep may read the ignore files above the searched paths (`ignoreScope`); default false. */
  trustedParents?: boolean;
  /** The ignore rules above the searched paths that ripgrep does not read (`ignoreScope`). */
  above?: (path: string) => boolean;
}

/** Where and how long ripgrep runs. */
export interface GlobRunOptions {
  cwd: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Listed paths counted before the total becomes `N+`. */
  countCap?: number;
}

/** Lists the matching files and renders the page with its summary line. */
export async function glob(rg: Ripgrep, request: GlobRequest, options: GlobRunOptions): Promise<string> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  const offset = request.offset ?? 0;
  const countCap = options.countCap ?? 1_000_000;
  // A pattern naming a dotfile (`.env*`, `.github/**`) means hidden files are wanted.
  const hidden = request.hidden || request.patterns.some((p) => /(^|\/|!)\.[^./]/.test(p));
  const { run, paths } = listFiles(rg, {
    cwd: options.cwd,
    paths: request.paths,
    globs: request.patterns,
    hidden,
    noIgnore: request.noIgnore,
    inGitRepo: request.inGitRepo ?? false,
    trustedParents: request.trustedParents,
    above: request.above,
    slashes: true,
    sort: request.sort === "path" ? "path" : "newest",
    signal,
  });
  const page: string[] = [];
  let total = 0;
  let capped = false;
  for await (const path of paths) {
    if (total >= offset && total < offset + request.limit) page.push(showPath(path));
    total++;
    if (total >= countCap) {
      capped = true;
      break;
    }
  }
  const exit = await run.exit;
  const { denied, other } = parseMessages(exit.stderr);
  if (total === 0 && denied.some((path) => request.paths.includes(path))) {
    throw new ToolError(
      "permission_denied",
      `Cannot list files in "${request.where}": permission denied; search a folder you can read`,
    );
  }
  if (exit.code === 2 && !exit.stopped && total === 0 && denied.length === 0) {
    const reason = other.join("\n") || "ripgrep failed without a message";
    throw new ToolError(
      "invalid_argument",
      `Cannot list files matching "${request.patterns.join('", "')}": ${reason}`,
    );
  }
  // Not `exit.stopped` alone: ripgrep may have finished writing before we stopped reading.
  const complete = !capped && !exit.stopped;
  // The deadline only matters when it cut the listing short.
  const notes = deadline.aborted && exit.stopped && !capped
    ? [timeoutNote(options.timeoutMs, "the list is partial; narrow path or pattern")]
    : [];
  if (denied.length) notes.push(deniedNote(denied));
  if (total === 0) {
    const skipped = [!request.noIgnore && "gitignored", !hidden && "hidden"].filter(Boolean).join(" and ");
    const hint = skipped ? ` (${skipped} files skipped)` : "";
    return [`No files match "${request.patterns.join('", "')}" in ${request.where}${hint}`, ...notes].join(
      "\n",
    );
  }
  const count = `${formatCount(total)}${complete ? "" : "+"} ${total === 1 ? "file" : "files"}`;
  const order = request.sort === "path" ? "" : ", newest first";
  const last = offset + page.length;
  let line: string;
  if (page.length === 0) line = `${count} (offset ${offset} is past the end)`;
  else if (last < total || !complete) {
    line = `${count}${order} (showing ${offset + 1}-${last}; offset=${last} for more)`;
  } else if (offset > 0) line = `${count}${order} (showing ${offset + 1}-${last})`;
  else line = `${count}${order}`;
  return [...page, "", line, ...notes].join("\n");
}
