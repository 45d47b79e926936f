/**
 * search_grep's engine: a fast unsorted first pass that settles small result sets, a path-sorted pass when
 * results must be paged (so `offset` always means the same thing), and the timeout. One pass (ripgrep's argv,
 * its output into a page) is pass.ts.
 * @module
 */
import type { Ripgrep } from "../../lib/ripgrep/locate.ts";
import type { FailedPath } from "../../lib/ripgrep/messages.ts";
import type { GrepMode, Page } from "./collect.ts";
import { pass } from "./pass.ts";
import { slicePage } from "./slice.ts";
import { failedError } from "./ripgrep_errors.ts";

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
  /** The searched paths lie in a git repository (`ignoreScope`); default false. */
  inGitRepo?: boolean;
  /** ripgrep may read the ignore files above the searched paths (`ignoreScope`); default false. */
  trustedParents?: boolean;
  /** The ignore rules above the searched paths that ripgrep does not read (`ignoreScope`). */
  above?: (path: string) => boolean;
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

/** A first, parallel pass keeps up to this many units in memory; a larger result set is paged by a sorted run. */
const BUFFER_UNITS = 2_000;
/** ... and up to this much text. */
const BUFFER_CHARS = 4_000_000;
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
