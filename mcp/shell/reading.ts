/** Reading a job's output for a response: pages from a cursor, everything kept, and the waits around them. */
import type { LogSlice } from "../../lib/process/output_log.ts";
import { formatCount } from "../../lib/text/format.ts";
import type { Job } from "./job.ts";
import { filterTexts } from "./filter.ts";
import { lineChunks, pageSlice } from "./page_slices.ts";
import {
  type DecodedOutput,
  decodeSlices,
  describeState,
  formatRuntime,
  renderDecoded,
  RESPONSE_CHARS,
} from "./render.ts";

/** Every kept byte from `since` to `until` (default: the end), as slices (the dropped middle splits them). */
export function readAll(job: Job, since: number, until = Infinity): LogSlice[] {
  const slices: LogSlice[] = [];
  let cursor = since;
  while (cursor < until) {
    const slice = job.read(cursor, until - cursor);
    if (slice.next <= cursor && slice.dropped === 0) break;
    slices.push(slice);
    cursor = slice.next;
    job.cursor = Math.max(job.cursor, cursor);
  }
  return slices;
}

/** How often a filtered long-poll runs its filter at most: new output is batched between runs. */
const FILTER_INTERVAL_MS = 100;

/** How a page is read. */
export interface PageOptions {
  filter?: RegExp;
  raw?: boolean;
  filterTimeoutMs?: number;
  signal?: AbortSignal;
  /** Long-poll: wait this long for new output (with a filter: for a matching line) or the job's end. */
  waitMs?: number;
}

/**
 * One page of output from `since`, at most a response's worth; filtered reads scan all that is kept. A
 * filtered long-poll consumes output that does not match and keeps waiting for a line that does.
 */
export async function readPage(job: Job, since: number, options: PageOptions): Promise<string> {
  const signal = options.signal;
  const deadline = performance.now() + (options.waitMs ?? 0);
  const cursor = job.cursor;
  let from = since;
  let unmatched = { bytes: 0, lines: 0 };
  let dropped = 0;
  let lastCheck = -Infinity;
  while (true) {
    if (performance.now() < deadline) {
      await job.changed(from, deadline - performance.now(), signal);
      // Batch output that arrives in small bursts: one filter process per interval, not per chunk.
      const pauseMs = Math.min(lastCheck + FILTER_INTERVAL_MS, deadline) - performance.now();
      if (options.filter && pauseMs > 0 && !job.ended) await pause(pauseMs, signal);
    }
    await job.refreshOrphans();
    // Read before the state check could see the end: a page read while output may come holds a line back.
    const running = !job.ended;
    let page: Page;
    try {
      page = await readOnce(job, from, { ...options, wholeLines: running });
    } catch (error) {
      job.cursor = cursor; // a failed read consumes nothing
      throw error;
    }
    lastCheck = performance.now();
    job.cursor = page.next;
    dropped += page.output.dropped;
    const matched = page.output.stdout !== "" || page.output.stderr !== "";
    const done = !options.filter || matched || !running || signal?.aborted ||
      performance.now() >= deadline;
    if (!matched) unmatched = addCounts(unmatched, page.scanned);
    if (done) {
      page.output.dropped = dropped;
      return renderPage(job, page, { ...options, unmatched: options.filter ? unmatched : undefined });
    }
    from = page.next;
  }
}

interface Page {
  output: DecodedOutput;
  next: number;
  /** What a filter tested: the page's kept bytes and lines. */
  scanned: { bytes: number; lines: number };
  /** The page ends inside a line (longer than a page) that the next page continues. */
  split?: boolean;
  /** A filtered page stopped before the end to fit the response. */
  full?: boolean;
  /** Where the page's first read began. */
  start: number;
}

/** Bytes of output a page holds at most: the response less room for the state line and markers. */
const PAGE_BYTES = RESPONSE_CHARS - 400;

/** One read; `wholeLines` leaves a filter's last, unfinished line for the next read (it may still match). */
async function readOnce(
  job: Job,
  since: number,
  options: PageOptions & { wholeLines: boolean },
): Promise<Page> {
  if (!options.filter) {
    const slice = pageSlice(job, since, PAGE_BYTES);
    const output = decodeSlices([slice], options);
    const scanned = { bytes: slice.stdout.length + slice.stderr.length, lines: 0 };
    return { output, next: slice.next, scanned, split: slice.split, start: since };
  }
  const until = options.wholeLines ? Math.max(since, job.log.lastLineEnd(since)) : job.log.total;
  const chunks = lineChunks(job, since, until);
  const decoded = chunks.map((chunk) => decodeSlices([chunk], options));
  const kept = await filterTexts(decoded.flatMap((d) => [d.stdout, d.stderr]), options.filter, {
    timeoutMs: options.filterTimeoutMs,
    signal: options.signal,
  });
  // Whole chunks only, while their matches fit: the cursor stops at the first chunk not shown.
  const output: DecodedOutput = { stdout: "", stderr: "", dropped: 0 };
  const scanned = { bytes: 0, lines: 0 };
  let next = since;
  let full = false;
  for (let i = 0; i < chunks.length; i++) {
    const [out, err] = [kept[2 * i], kept[2 * i + 1]];
    if (i > 0 && output.stdout.length + output.stderr.length + out.length + err.length > PAGE_BYTES) {
      full = true;
      break;
    }
    output.stdout += out;
    output.stderr += err;
    output.dropped += chunks[i].dropped;
    output.midLine ||= chunks[i].midLine === true;
    scanned.bytes += chunks[i].stdout.length + chunks[i].stderr.length;
    scanned.lines += countLines(decoded[i].stdout) + countLines(decoded[i].stderr);
    next = chunks[i].next;
  }
  return { output, next, scanned, full, start: since };
}

function renderPage(
  job: Job,
  page: Page,
  options: PageOptions & { unmatched?: { bytes: number; lines: number } },
): string {
  const { unmatched } = options;
  // Only a filtered page's first chunk can outgrow a response (a very long line); unfiltered, it is all there.
  const note = `shell_output job_id=${job.id} since=${page.start} without filter shows them`;
  const body = renderDecoded(page.output, { ...options, note, budget: PAGE_BYTES });
  const unread = job.unread(page.next);
  const gap = unread.dropped > 0 ? ` (${formatCount(unread.dropped)} bytes before them were dropped)` : "";
  const more = unread.kept > 0 ? `; ${formatCount(unread.kept)} more bytes: call again${gap}` : "";
  const state = job.state === "running" ? `running ${formatRuntime(job.runtimeMs())}` : describeState(job);
  // A running job's unfinished last line is left for the filter until it ends: say it is there.
  const waiting = options.filter && job.state === "running" ? unread.kept : 0;
  const unfinished =
    `${formatCount(waiting)} bytes of an unfinished line wait; the filter tests it once it ends, ` +
    "or read it now without filter";
  const empty = unmatched && unmatched.bytes > 0
    ? `(no line matched: ${formatCount(unmatched.lines)} new lines, ${formatCount(unmatched.bytes)} bytes` +
      `${waiting > 0 ? `; ${unfinished}` : ""})`
    : waiting > 0
    ? `(no finished line yet: ${unfinished})`
    : "(no new output)";
  const end = page.split
    ? `…\n[the line goes on: shell_output job_id=${job.id} since=${page.next} continues it]`
    : page.full
    ? `\n[... more matches after since=${page.next} did not fit: shell_output job_id=${job.id} ` +
      `since=${page.next} with the same filter shows them ...]`
    : "";
  return `job ${job.id} ${state}; next since=${page.next}${more}\n${body ? `${body}${end}` : empty}`;
}

function countLines(text: string): number {
  if (text === "") return 0;
  let lines = text.endsWith("\n") ? 0 : 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
  return lines;
}

function addCounts(a: { bytes: number; lines: number }, b: { bytes: number; lines: number }) {
  return { bytes: a.bytes + b.bytes, lines: a.lines + b.lines };
}

/** Resolves after `ms` or on abort. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done);
  });
}

/** Resolves when the job's state is final, after `timeoutMs`, or on abort. */
export async function untilFinished(job: Job, timeoutMs: number, signal: AbortSignal): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  await Promise.race([
    job.finished,
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
      onAbort = resolve;
      signal.addEventListener("abort", onAbort);
    }),
  ]);
  clearTimeout(timer);
  signal.removeEventListener("abort", onAbort!);
}

/** After input: wait for the first reply (≤ 2 s), then until output pauses for 150 ms (≤ 3 s in all). */
export async function settle(job: Job, before: number, signal: AbortSignal): Promise<void> {
  const deadline = performance.now() + 3000;
  await job.changed(before, 2000, signal);
  let seen = -1;
  while (
    job.log.total !== seen && job.state === "running" && performance.now() < deadline && !signal.aborted
  ) {
    seen = job.log.total;
    await job.changed(seen, 150, signal);
  }
}
