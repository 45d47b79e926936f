/**
 * One ripgrep run of search_grep, fed into a {@link PageCollector}: `rg --json` lines in lines and files
 * mode, ripgrep's own per-file counts in count mode. Stops ripgrep once the collector has enough.
 * @module
 */
import { ToolError } from "../../lib/mcp/errors.ts";
import { countRecords } from "../../lib/ripgrep/counts.ts";
import { keepListed } from "../../lib/ripgrep/ignore_rules.ts";
import type { Ripgrep } from "../../lib/ripgrep/locate.ts";
import { type FailedPath, parseMessages } from "../../lib/ripgrep/messages.ts";
import { RipgrepRun } from "../../lib/ripgrep/run.ts";
import { JsonShrinker } from "../../lib/ripgrep/shrink.ts";
import { type Page, PageCollector } from "./collect.ts";
import { grepArgs, grepIgnoreRules } from "./grep_args.ts";
import type { GrepRequest, GrepRunOptions } from "./grep.ts";
import { ripgrepError } from "./ripgrep_errors.ts";

/** A match record (one line, as JSON) longer than this is shrunk while it streams in, never built whole. */
const MAX_RECORD_CHARS = 1_000_000;

/** One ripgrep pass: the request, and how this pass pages it. */
export interface PassOptions {
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

/** What one pass found, and what ripgrep said about the paths it could not search. */
export interface PassResult {
  page: Page;
  overflowed: boolean;
  denied: string[];
  failed: FailedPath[];
}

/** Runs ripgrep once for `request` and collects the page `how` asks for. */
export async function pass(
  rg: Ripgrep,
  { request, options, signal, ...how }: PassOptions,
): Promise<PassResult> {
  const collector = new PageCollector({
    mode: request.mode ?? "lines",
    context: request.context ?? 0,
    maxLineChars: options.maxLineChars ?? 250,
    offset: how.offset,
    limit: how.limit,
    pageChars: how.pageChars,
    countHorizon: how.countHorizon,
    stopOnOverflow: how.stopOnOverflow,
    keep: keepListed(grepIgnoreRules(request), request.paths),
  });
  if (signal.aborted) return { page: collector.page(), overflowed: false, denied: [], failed: [] };
  const run = new RipgrepRun(rg, grepArgs(request, how.sorted), { cwd: options.cwd, signal });
  if (request.mode === "count") {
    for await (const { path, count } of countRecords(run)) {
      if (!collector.count(path, count)) break;
    }
  } else {
    const maxChars = options.maxRecordChars ?? MAX_RECORD_CHARS;
    for await (const line of run.lines({ maxChars, oversize: () => new JsonShrinker(maxChars) })) {
      if (!collector.feed(line)) break;
    }
  }
  const exit = await run.exit;
  const { denied, failed, other } = parseMessages(exit.stderr);
  // Count mode has no JSON summary: a run that ended by itself is complete, unless a fatal error ended it
  // (a message that is not about one path, e.g. a bad regex).
  if (request.mode === "count" && !exit.stopped && (exit.code !== 2 || other.length === failed.length)) {
    collector.finish(null);
  }
  const page = collector.page();
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
