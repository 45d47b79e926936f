/**
 * A job's stdin pipe as an ordered queue: a write waits a bounded time for the job to take its bytes, and
 * whatever the job has not read yet keeps flowing in the background, in order, behind earlier input.
 * @module
 */
import { formatCount } from "../../lib/text/format.ts";

/** What a stdin write achieved within its wait. */
export interface StdinReport {
  /** Bytes of this write the pipe took. */
  accepted: number;
  total: number;
  /** Bytes of all writes still waiting for the job to read. */
  queued: number;
  /** `eof` was asked but stdin closes only after the queued bytes. */
  eofPending: boolean;
}

/** Why a write failed: the pipe is closed (or broke), with how much of this write got through. */
export class StdinClosedError extends Error {
  override readonly name = "StdinClosedError";
  constructor(readonly accepted: number, readonly total: number) {
    super(`stdin is closed; ${formatCount(accepted)} of ${formatCount(total)} bytes were written`);
  }
}

/** Stdin is written in chunks this big, so a partly read write reports how much got through. */
const CHUNK_BYTES = 16 * 1024;

/** How long closing may wait for queued input once the job ended. */
const CLOSE_WAIT_MS = 1000;

const encoder = new TextEncoder();

/** The writable end of a job's stdin. */
export class StdinQueue {
  #writer: WritableStreamDefaultWriter<Uint8Array> | undefined;
  /** Bytes handed to the stream that the pipe has not taken yet. */
  #queued = 0;

  constructor(stream: WritableStream<Uint8Array>) {
    this.#writer = stream.getWriter();
  }

  /** Whether writes are still possible (no eof asked, no failure seen). */
  get open(): boolean {
    return this.#writer !== undefined;
  }

  /**
   * Queues `text` (`eof` closes stdin after it) and waits until the pipe took it all, at most `waitMs` or
   * until `signal` aborts. Throws {@link StdinClosedError} when the pipe is or becomes closed meanwhile.
   */
  async write(
    text: string,
    eof: boolean,
    options: { waitMs: number; signal?: AbortSignal },
  ): Promise<StdinReport> {
    const writer = this.#writer;
    const bytes = encoder.encode(text);
    if (!writer) throw new StdinClosedError(0, bytes.length);
    let accepted = 0;
    // The stream keeps chunks in order; awaiting each one makes `accepted` a count the model can trust.
    const writes: Promise<void>[] = [];
    for (let offset = 0; offset < bytes.length; offset += CHUNK_BYTES) {
      const chunk = bytes.subarray(offset, offset + CHUNK_BYTES);
      this.#queued += chunk.length;
      writes.push(
        writer.write(chunk).then(() => {
          accepted += chunk.length;
        }).finally(() => this.#queued -= chunk.length),
      );
    }
    if (eof) {
      this.#writer = undefined;
      writes.push(writer.close());
    }
    // A failed write errors the stream, so every later one fails too: all of them are caught here.
    const all = Promise.all(writes).then(() => "done" as const, () => "failed" as const);
    const outcome = await raceDeadline(all, options.waitMs, options.signal);
    if (outcome === "failed") {
      this.#writer = undefined;
      throw new StdinClosedError(accepted, bytes.length);
    }
    return { accepted, total: bytes.length, queued: this.#queued, eofPending: eof && outcome !== "done" };
  }

  /**
   * Closes stdin after the queued input, waiting for that at most a second: a process that holds stdin but
   * never reads (a background leftover) must not hold the job's end or the server's shutdown.
   */
  async close(): Promise<void> {
    const writer = this.#writer;
    this.#writer = undefined;
    if (writer) await raceDeadline(writer.close().catch(() => {}), CLOSE_WAIT_MS);
  }
}

/** `promise`'s value, or "deadline" after `ms` or on abort, whichever comes first. */
async function raceDeadline<T>(
  promise: Promise<T>,
  ms: number,
  signal?: AbortSignal,
): Promise<T | "deadline"> {
  if (signal?.aborted) return "deadline";
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const deadline = new Promise<"deadline">((resolve) => {
    onAbort = () => resolve("deadline");
    timer = setTimeout(onAbort, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort!);
  }
}
