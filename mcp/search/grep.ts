/**
 * search_grep's engine: the ripgrep argv, a fast unsorted first pass that settles small result sets, a
 * path-sorted pass when results must be paged (so `offset` always means the same thing), the timeout, and
 * ripgrep's fatal errors as ToolErrors.
 * @module
 */
import { ToolError } from "../../lib/mcp/errors.ts";
import type { Ripgrep } from "../../lib/ripgrep/locate.ts";
import { RipgrepRun } from "../../lib/ripgrep/run.ts";
import { type GrepMode, type Page, PageCollector } from "./collect.ts";

/** A grep request, already validated and with its path resolved. */
export interface GrepRequest {
  pattern: string;
  /** Path argument for ripgrep, relative to `cwd` (`.` for the root) or absolute. */
  path: string;
  globs?: string[];
  types?: string[];
  case?: "smart" | "sensitive" | "insensitive";
  fixed?: boolean;
  word?: boolean;
  multiline?: boolean;
  pcre2?: boolean;
  context?: number;
  mode?: GrepMode;
  limit: number;
  offset?: number;
  hidden?: boolean;
  noIgnore?: boolean;
}

/** Where and how long ripgrep runs. */
export interface GrepRunOptions {
  /** The workspace root: ripgrep's cwd, so globs with `/` and shown paths are relative to it. */
  cwd: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Units counted past the page before a total becomes `N+`. */
  countHorizon?: number;
  pageChars?: number;
  maxLineChars?: number;
}

/** A page of grep results and how the search ended. */
export interface GrepOutcome extends Page {
  timedOut: boolean;
}

/** The ripgrep argv for `request`; `sorted` trades parallelism for a stable order. */
export function grepArgs(request: GrepRequest, sorted: boolean): string[] {
  const args = ["--json", "--no-config", "--no-messages", "--binary", "--path-separator", "/"];
  // Honour .gitignore even in a folder that is not a git repository: it still says what is noise.
  args.push("--no-require-git");
  args.push(
    { smart: "--smart-case", sensitive: "--case-sensitive", insensitive: "--ignore-case" }[
      request.case ?? "smart"
    ],
  );
  if (request.fixed) args.push("--fixed-strings");
  if (request.word) args.push("--word-regexp");
  if (request.multiline) args.push("--multiline");
  if (request.pcre2) args.push("--pcre2");
  if (request.context && (request.mode ?? "lines") === "lines") {
    args.push("--context", String(request.context));
  }
  if (request.mode === "files") args.push("--max-count", "1");
  if (request.hidden) args.push("--hidden", "--glob", "!.git/");
  if (request.noIgnore) args.push("--no-ignore");
  for (const glob of request.globs ?? []) args.push("--glob", glob);
  for (const type of request.types ?? []) args.push("--type", type);
  if (sorted) args.push("--sort", "path");
  args.push("--regexp", request.pattern, "--", request.path);
  return args;
}

/** Runs the search: at most two ripgrep passes, each stopped as soon as its page is settled. */
export async function grep(rg: Ripgrep, request: GrepRequest, options: GrepRunOptions): Promise<GrepOutcome> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  if ((request.offset ?? 0) === 0) {
    const first = await pass(rg, request, options, { sorted: false, signal });
    // Everything fit on the page: show it in path order. Otherwise page through a stable order.
    if (!first.overflowed) return finish(first.page, deadline, true);
  }
  const second = await pass(rg, request, options, { sorted: true, signal });
  return finish(second.page, deadline, false);
}

function finish(page: Page, deadline: AbortSignal, sort: boolean): GrepOutcome {
  if (sort) page.files.sort((a, b) => comparePaths(a.path, b.path));
  return { ...page, timedOut: deadline.aborted };
}

async function pass(
  rg: Ripgrep,
  request: GrepRequest,
  options: GrepRunOptions,
  how: { sorted: boolean; signal: AbortSignal },
): Promise<{ page: Page; overflowed: boolean }> {
  const mode = request.mode ?? "lines";
  const collector = new PageCollector({
    mode,
    offset: request.offset ?? 0,
    limit: request.limit,
    context: request.context ?? 0,
    countHorizon: options.countHorizon ?? 2_000,
    pageChars: options.pageChars ?? 40_000,
    maxLineChars: options.maxLineChars ?? 250,
    stopOnOverflow: !how.sorted,
  });
  if (how.signal.aborted) return { page: collector.page(), overflowed: false };
  const run = new RipgrepRun(rg, grepArgs(request, how.sorted), { cwd: options.cwd, signal: how.signal });
  for await (const line of run.lines()) {
    if (!collector.feed(line)) break;
  }
  const exit = await run.exit;
  const page = collector.page();
  if (exit.code === 2 && !page.complete && !exit.stopped) throw ripgrepError(request, exit.stderr);
  return { page, overflowed: collector.overflowed && !how.signal.aborted };
}

/** ripgrep's own words for a bad regex, glob or type, as an invalid_argument error. */
function ripgrepError(request: GrepRequest, stderr: string): ToolError {
  let reason = stderr.replace(/^rg: /gm, "").trim() || "ripgrep failed without a message";
  if (/regex|glob|file type|PCRE2|look-?around|backreference/i.test(reason)) {
    // ripgrep suggests its own flags; the model's switches are the tool's arguments.
    reason = reason
      .replace(/\s*Consider enabling PCRE2[\s\S]*$/, "\nSet pcre2: true for look-around and backreferences")
      .replace(/\s*Consider enabling multiline mode[\s\S]*$/, "\nSet multiline: true to match across lines");
    return new ToolError("invalid_argument", `Cannot search for /${request.pattern}/: ${reason}`);
  }
  return new ToolError("internal", `Cannot search for /${request.pattern}/: ${reason}`);
}

/** Path order as ripgrep's `--sort path` gives it: component by component. */
export function comparePaths(a: string, b: string): number {
  const left = a.split("/");
  const right = b.split("/");
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    if (left[i] !== right[i]) return left[i] < right[i] ? -1 : 1;
  }
  return left.length - right.length;
}
