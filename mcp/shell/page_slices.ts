/**
 * Where pages of a job's output end: at a line end when the page holds one, else (a line longer than a page)
 * mid-line but never inside a UTF-8 character or an escape sequence. Filtered reads scan line-aligned chunks,
 * so a response that fills up stops at a chunk and the cursor never passes output that was not shown.
 * @module
 */
import { unfinishedEscapeTail } from "../../lib/text/terminal.ts";
import type { Job, JobSlice } from "./job.ts";

/** A page; `split` when it ends inside a line that goes on in the next page. */
export type PageSlice = JobSlice & { split?: boolean };

/** At most `maxBytes` kept bytes from `since`, ending on a line boundary where the page holds one. */
export function pageSlice(job: Job, since: number, maxBytes: number): PageSlice {
  const first = job.read(since, maxBytes);
  // Short of the budget: the page holds all there is (or stopped where the head ends, before dropped bytes).
  if (first.next - first.from < maxBytes - 3 || first.next >= job.log.total) return first;
  const lineEnd = job.log.lastLineEnd(first.from, first.next);
  if (lineEnd > first.from) return lineEnd === first.next ? first : job.read(since, lineEnd - first.from);
  const trim = unfinishedEscapeTail(job.log.peek(first.next - 256, first.next));
  const page = trim > 0 ? job.read(since, first.next - trim - first.from) : first;
  return { ...page, split: true };
}

/** Bytes per chunk a filtered read scans (plus the rest of the line it ends in). */
export const CHUNK_BYTES = 8192;

/**
 * The kept bytes from `since` to `until` as chunks of about {@link CHUNK_BYTES}, each extended to the end of
 * the line it stops in (a line is never split, except by the dropped middle of the log).
 */
export function lineChunks(job: Job, since: number, until: number): JobSlice[] {
  const chunks: JobSlice[] = [];
  let cursor = since;
  while (cursor < until) {
    let chunk = job.read(cursor, CHUNK_BYTES);
    if (chunk.next > until) chunk = job.read(cursor, until - chunk.from);
    if (chunk.next < until && job.log.peek(chunk.next - 1, chunk.next)[0] !== 10) {
      // The whole line, however long: a filter must see it whole (and a line split in two could match twice).
      const lineStart = job.log.lineStartAfter(chunk.next, until - chunk.next);
      if (lineStart !== -1 && lineStart <= until) chunk = job.read(cursor, lineStart - chunk.from);
    }
    if (chunk.next <= cursor) break;
    chunks.push(chunk);
    cursor = chunk.next;
  }
  return chunks;
}
