/**
 * search_grep's engine: the ripgrep argv, a fast unsorted first pass that settles small result sets, a
 * path-sorted pass when results must be paged (so `offset` always means the same thing), the timeout, and
 * ripgrep's fatal errors as ToolErrors.
 * @module
 */
import { ToolError } from "../../lib/mcp/errors.ts";
import type { Ripgrep } from "../../lib/ripgrep/locate.ts";
import { type FailedPath, parseMessages } from "../../lib/ripgrep/messages.ts";
import { RipgrepRun } from "../../lib/ripgrep/run.ts";
import { globFilter } from "../../lib/ripgrep/glob_filter.ts";
import { ignoreRuleArgs, type IgnoreRules, keepListed } from "../../lib/ripgrep/ignore_rules.ts";
import { JsonShrinker } from "../../lib/ripgrep/shrink.ts";
import { type GrepMode, type Page, PageCollector } from "./collect.ts";
import { slicePage } from "./slice.ts";
import { failedError, ripgrepError } from "./ripgrep_errors.ts";

/** A grep request, already validated and with its path resolved. */
export interface GrepRequest {
  pattern: string;
  /** Path arguments for ripgrep, relative to `cwd` (`.` for the root) or absolute; searched in this order. */
  paths: string[];
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
  /** The searched paths lie in a git repository (`insideGitRepo`); default false. */
  inGitRepo?: boolean;
  /** The searched tree is small (`isSmallTree`): one ripgrep thread is faster than its parallel walker. */
  smallTree?: boolean;
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
  /** ripgrep JSON records longer than this are shrunk while streaming (long lines cut); default 1,000,000. */
  maxRecordChars?: number;
  /** Result sets up to this many units are buffered from a parallel pass; 0 always pages a sorted run. */
  bufferUnits?: number;
}

/** A page of grep results and how the search ended. */
export interface GrepOutcome extends Page {
  timedOut: boolean;
  /** Paths ripgrep could not read (permission denied): searched around, named in a note. */
  denied: string[];
  /** Files ripgrep gave up on (PCRE2's match limit): named in a note beside the other files' results. */
  failed: FailedPath[];
}

/** The ripgrep argv for `request`; `sorted` trades parallelism for a stable order. */
export function grepArgs(request: GrepRequest, sorted: boolean): string[] {
  // No --no-messages: stderr names the folders it could not read (see messages.ts). No --binary: ripgrep's
  // default drops a file at its first NUL byte, where --binary would read a 100 GB disk image to its end
  // looking for a match; a file named as a path is still searched whole (ripgrep's rule for explicit files).
  const args = ["--json", "--no-config", "--path-separator", "/"];
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
  args.push(...ignoreRuleArgs(ignoreRules(request)));
  for (const type of request.types ?? []) args.push("--type", type);
  // `--sort path` runs on one thread already.
  if (sorted) args.push("--sort", "path");
  else if (request.smallTree) args.push("--threads", "1");
  args.push("--regexp", request.pattern, "--", ...request.paths);
  return args;
}

/** The ignore rules of a request; its positive globs are applied to result paths (`keepListed`). */
function ignoreRules(request: GrepRequest): IgnoreRules {
  return {
    hidden: request.hidden,
    noIgnore: request.noIgnore,
    inGitRepo: request.inGitRepo ?? false,
    globs: request.globs?.length ? globFilter(request.globs) : undefined,
    types: (request.types?.length ?? 0) > 0,
  };
}

/** A first, parallel pass keeps up to this many units in memory; a larger result set is paged by a sorted run. */
const BUFFER_UNITS = 2_000;
/** ... and up to this much text. */
const BUFFER_CHARS = 4_000_000;
/** A match record (one line, as JSON) longer than this is shrunk while it streams in, never built whole. */
const MAX_RECORD_CHARS = 1_000_000;
/** Pages past this offset skip the buffered pass. */
const MAX_BUFFERED_END = 20_000;

/**
 * Runs the search. A parallel ripgrep pass buffers the whole result set when it is small (≤ 2,000 units):
 * then the page is cut from it in path order. A larger set is paged by a `--sort path` run that stops as
 * soon as its page and count horizon are done, so `offset` means the same on every call.
 */
export async function grep(rg: Ripgrep, request: GrepRequest, options: GrepRunOptions): Promise<GrepOutcome> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  const mode = request.mode ?? "lines";
  const offset = request.offset ?? 0;
  const pageChars = options.pageChars ?? 40_000;
  const end = offset + request.limit;
  const bufferUnits = options.bufferUnits ?? BUFFER_UNITS;
  if (bufferUnits > 0 && end <= MAX_BUFFERED_END) {
    const buffered = await pass(rg, {
      request,
      options,
      signal,
      sorted: false,
      offset: 0,
      limit: Math.max(end, bufferUnits),
      pageChars: BUFFER_CHARS,
      countHorizon: 0,
      stopOnOverflow: true,
    });
    if (!buffered.overflowed) {
      const page = slicePage(buffered.page, {
        paths: request.paths,
        mode,
        offset,
        limit: request.limit,
        pageChars,
        context: request.context ?? 0,
      });
      return checked(request, {
        ...page,
        timedOut: deadline.aborted && !page.complete,
        denied: buffered.denied,
        failed: buffered.failed,
      });
    }
  }
  const sorted = await pass(rg, {
    request,
    options,
    signal,
    sorted: true,
    offset,
    limit: request.limit,
    pageChars,
    countHorizon: options.countHorizon ?? 2_000,
    stopOnOverflow: false,
  });
  // Only a run the deadline cut short is partial; one that finished just before it is not.
  return checked(request, {
    ...sorted.page,
    timedOut: deadline.aborted && !sorted.page.complete && !sorted.page.more,
    denied: sorted.denied,
    failed: sorted.failed,
  });
}

/** An outcome with nothing to show but files ripgrep gave up on is an error, never "No matches". */
function checked(request: GrepRequest, outcome: GrepOutcome): GrepOutcome {
  if (outcome.units === 0 && outcome.binaryFiles === 0 && outcome.failed.length) {
    throw failedError(request.pattern, outcome.failed, outcome.searched);
  }
  return outcome;
}

/** One ripgrep pass: the request, and how this pass pages it. */
interface PassOptions {
  request: GrepRequest;
  options: GrepRunOptions;
  signal: AbortSignal;
  sorted: boolean;
  offset: number;
  limit: number;
  pageChars: number;
  countHorizon: number;
  stopOnOverflow: boolean;
}

async function pass(
  rg: Ripgrep,
  { request, options, signal, ...how }: PassOptions,
): Promise<{ page: Page; overflowed: boolean; denied: string[]; failed: FailedPath[] }> {
  const collector = new PageCollector({
    mode: request.mode ?? "lines",
    context: request.context ?? 0,
    maxLineChars: options.maxLineChars ?? 250,
    offset: how.offset,
    limit: how.limit,
    pageChars: how.pageChars,
    countHorizon: how.countHorizon,
    stopOnOverflow: how.stopOnOverflow,
    keep: keepListed(ignoreRules(request), request.paths),
  });
  if (signal.aborted) return { page: collector.page(), overflowed: false, denied: [], failed: [] };
  const run = new RipgrepRun(rg, grepArgs(request, how.sorted), { cwd: options.cwd, signal });
  const maxChars = options.maxRecordChars ?? MAX_RECORD_CHARS;
  for await (const line of run.lines({ maxChars, oversize: () => new JsonShrinker(maxChars) })) {
    if (!collector.feed(line)) break;
  }
  const exit = await run.exit;
  const page = collector.page();
  const { denied, failed } = parseMessages(exit.stderr);
  if (page.units === 0 && denied.some((path) => request.paths.includes(path))) {
    throw new ToolError(
      "permission_denied",
      `Cannot search "${
        denied.find((path) => request.paths.includes(path))
      }": permission denied; search a folder you can read`,
    );
  }
  if (exit.code === 2 && !page.complete && !exit.stopped) throw ripgrepError(request.pattern, exit.stderr);
  return { page, overflowed: collector.overflowed && !signal.aborted, denied, failed };
}
