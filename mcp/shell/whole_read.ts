/**
 * A job's output from a cursor to its end as one response (shell_run, shell_kill): all of it when it fits,
 * else its head and tail around a marker naming the cursor of the cut. The cut is made on the bytes, at line
 * ends where one is near and never inside a UTF-8 character or an escape sequence, so the job's cursor can
 * be left at the first cut byte: following it reaches every byte still kept.
 * @module
 */
import { formatCount, formatSize } from "../../lib/text/format.ts";
import { unfinishedEscapeTail } from "../../lib/text/terminal.ts";
import type { Job, JobSlice } from "./job.ts";
import { readAll } from "./reading.ts";
import { type DecodedOutput, decodeSlices, RESPONSE_CHARS } from "./render.ts";

/** How a whole read is shaped. */
export interface WholeReadOptions {
  raw?: boolean;
  /** Share of the budget given to the head; default 0.5. */
  headShare?: number;
  /** Bytes shown at most; default a response's worth minus room for markers. */
  budget?: number;
}

/** The output and, when the middle was cut, the cursor of its first cut byte. */
export interface WholeRead {
  output: DecodedOutput;
  cutAt?: number;
}

/** Room for the state line and markers, so a cut response stays within {@link RESPONSE_CHARS}. */
const MARKER_ROOM = 600;

/** Reads from `since` to the end; moves the job's cursor to the end, or to the first cut byte. */
export function readWhole(job: Job, since: number, options: WholeReadOptions = {}): WholeRead {
  const budget = options.budget ?? RESPONSE_CHARS - MARKER_ROOM;
  const log = job.log;
  const start = job.read(since, 0).from;
  if (job.unread(start).kept <= budget) {
    const slices = readAll(job, since);
    job.cursor = Math.max(since, slices.at(-1)?.next ?? since);
    return { output: decodeSlices(slices, options) };
  }
  const headBudget = Math.floor(budget * (options.headShare ?? 0.5));
  const head = headSlice(job, since, start, headBudget);
  const cutAt = head.next;
  const keptFloor = log.dropped > 0 ? log.tailStart : 0;
  const tailFrom = tailStart(job, cutAt, Math.max(log.total - (budget - headBudget), keptFloor));
  const tail = job.read(tailFrom);
  const headOut = decodeSlices([head], options);
  const tailOut = decodeSlices([tail], options);
  const cut = describeCut(job, cutAt, tailFrom);
  const midLine = (stream: "stdout" | "stderr") => head[stream].length > 0 && head[stream].at(-1) !== 10;
  const join = (stream: "stdout" | "stderr") => {
    const marker = cut.markers[stream];
    if (!marker) return headOut[stream] + tailOut[stream];
    const before = headOut[stream] === ""
      ? ""
      : midLine(stream)
      ? "…\n"
      : headOut[stream].endsWith("\n")
      ? ""
      : "\n";
    const after = tailOut[stream] === "" ? "" : tail.from > 0 && !startsLine(job, tail.from) ? "\n…" : "\n";
    return `${headOut[stream]}${before}${marker}${after}${tailOut[stream]}`;
  };
  job.cursor = cutAt;
  return {
    output: { stdout: join("stdout"), stderr: join("stderr"), dropped: head.dropped, midLine: head.midLine },
    cutAt,
  };
}

/** The head: up to `budget` bytes from `since`, ending at a line end near its end, else escape-safe. */
function headSlice(job: Job, since: number, start: number, budget: number): JobSlice {
  const first = job.read(since, budget);
  const lineEnd = job.log.lastLineEnd(start, first.next);
  if (lineEnd > start && first.next - lineEnd <= Math.max(200, budget / 5)) {
    return job.read(since, lineEnd - start);
  }
  const trim = unfinishedEscapeTail(job.log.peek(first.next - 256, first.next));
  return trim > 0 ? job.read(since, first.next - trim - start) : first;
}

/** Where the tail begins: at a line start near `from`, else at `from` moved back out of an escape or character. */
function tailStart(job: Job, cutAt: number, from: number): number {
  const log = job.log;
  if (from <= cutAt) return cutAt;
  const lineStart = log.lineStartAfter(from, 2048);
  if (lineStart !== -1 && lineStart < log.total) return lineStart;
  let at = from - unfinishedEscapeTail(log.peek(from - 256, from));
  const floor = log.dropped > 0 ? log.tailStart : 0;
  while (at > cutAt && at > floor && (log.peek(at, at + 1)[0] & 0xc0) === 0x80) at--;
  return Math.max(at, cutAt);
}

function startsLine(job: Job, offset: number): boolean {
  return job.log.peek(offset - 1, offset)[0] === 10;
}

/** Per stream, the marker for the bytes in [from, until) not shown: counts, the cursor, what is gone. */
function describeCut(
  job: Job,
  from: number,
  until: number,
): { markers: Partial<Record<"stdout" | "stderr", string>> } {
  const log = job.log;
  const counts = { stdout: { bytes: 0, lines: 0 }, stderr: { bytes: 0, lines: 0 } };
  let gone = 0;
  for (let cursor = from; cursor < until;) {
    const begin = cursor >= log.headBytes && cursor < log.tailStart ? log.tailStart : cursor;
    if (begin >= until) {
      gone += until - cursor;
      break;
    }
    const slice = log.read(cursor, until - begin);
    gone += slice.dropped;
    for (const stream of ["stdout", "stderr"] as const) {
      counts[stream].bytes += slice[stream].length;
      for (const byte of slice[stream]) if (byte === 10) counts[stream].lines++;
    }
    if (slice.next <= cursor) break;
    cursor = slice.next;
  }
  const goneNote = gone > 0
    ? `; ${formatCount(gone)} bytes in it are gone (a job keeps its first 64 KiB and last 1 MiB)`
    : "";
  const marker = (stream: "stdout" | "stderr", note: string) => {
    const { bytes, lines } = counts[stream];
    const label = stream === "stderr" ? "stderr " : "";
    return `[... ${formatCount(lines)} ${label}lines (${
      formatSize(bytes)
    }) cut: shell_output job_id=${job.id} ` +
      `since=${from} shows them${note} ...]`;
  };
  const markers: Partial<Record<"stdout" | "stderr", string>> = {};
  if (counts.stdout.bytes > 0 || counts.stderr.bytes === 0) markers.stdout = marker("stdout", goneNote);
  if (counts.stderr.bytes > 0) markers.stderr = marker("stderr", markers.stdout ? "" : goneNote);
  return { markers };
}
