/** Reading a job's output for a response: pages from a cursor, everything kept, and the waits around them. */
import type { LogSlice } from "../../lib/process/output_log.ts";
import { formatCount } from "../../lib/text/format.ts";
import type { Job } from "./job.ts";
import { filterTexts } from "./filter.ts";
import { decodeSlices, describeState, formatRuntime, renderDecoded, RESPONSE_CHARS } from "./render.ts";

/** Every kept byte from `since` to the end, as slices (the dropped middle splits them). */
export function readAll(job: Job, since: number): LogSlice[] {
  const slices: LogSlice[] = [];
  let cursor = since;
  while (true) {
    const slice = job.read(cursor);
    if (slice.next <= cursor && slice.dropped === 0) break;
    slices.push(slice);
    cursor = slice.next;
    job.cursor = Math.max(job.cursor, cursor);
  }
  return slices;
}

/** One page of output from `since`, at most a response's worth; filtered reads scan all that is kept. */
export async function readPage(
  job: Job,
  since: number,
  options: { filter?: RegExp; raw?: boolean; filterTimeoutMs?: number; signal?: AbortSignal },
): Promise<string> {
  await job.refreshOrphans();
  const cursor = job.cursor;
  let slices: LogSlice[];
  let next: number;
  if (options.filter) {
    slices = readAll(job, since);
    next = Math.max(since, slices.at(-1)?.next ?? since);
  } else {
    const slice = job.read(since, RESPONSE_CHARS);
    slices = [slice];
    next = slice.next;
  }
  const output = decodeSlices(slices, options);
  if (options.filter) {
    try {
      [output.stdout, output.stderr] = await filterTexts([output.stdout, output.stderr], options.filter, {
        timeoutMs: options.filterTimeoutMs,
        signal: options.signal,
      });
    } catch (error) {
      job.cursor = cursor; // a failed read consumes nothing
      throw error;
    }
  }
  job.cursor = next;
  const body = renderDecoded(output, options);
  const unread = job.log.total - next;
  const more = unread > 0 ? `; ${formatCount(unread)} more bytes: call again` : "";
  const state = job.state === "running" ? `running ${formatRuntime(job.runtimeMs())}` : describeState(job);
  return `job ${job.id} ${state}; next since=${next}${more}\n${body || "(no new output)"}`;
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
