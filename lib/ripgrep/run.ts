/** Runs ripgrep and streams its stdout line by line, stopping it as soon as the reader has enough. */
import type { Ripgrep } from "./locate.ts";

/** How a ripgrep run ended. */
export interface RipgrepExit {
  /** Exit code: 0 found, 1 nothing found, 2 error; null when we stopped it. */
  code: number | null;
  /** ripgrep's stderr (capped at 8 KB): its own explanation of a bad regex or an unreadable path. */
  stderr: string;
  /** True when it was stopped early: page full, timeout or cancellation. */
  stopped: boolean;
}

/** Options of one ripgrep run. */
export interface RipgrepOptions {
  cwd: string;
  signal?: AbortSignal;
}

const STDERR_CAP = 8 * 1024;

/** Where the pieces of an over-long line go. */
export interface LineSink {
  push(piece: string): void;
  finish(): string;
}

/** How {@link RipgrepRun.lines} treats long lines. */
export interface LinesOptions {
  /** Lines longer than this are handed to `oversize` piece by piece instead of being built. */
  maxChars?: number;
  /** A fresh sink for one over-long line; default: keep its first `maxChars` characters. */
  oversize?: () => LineSink;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

function truncator(maxChars: number): LineSink {
  const kept: string[] = [];
  let chars = 0;
  return {
    push(piece) {
      if (chars >= maxChars) return;
      kept.push(piece.slice(0, maxChars - chars));
      chars += kept.at(-1)!.length;
    },
    finish: () => kept.join(""),
  };
}

/** One ripgrep process: iterate `lines()`, call `stop()` when done early, await `exit`. */
export class RipgrepRun {
  readonly #child: Deno.ChildProcess;
  readonly #stderr: Promise<string>;
  #stopped = false;
  readonly exit: Promise<RipgrepExit>;

  constructor(rg: Ripgrep, args: string[], options: RipgrepOptions) {
    this.#child = new Deno.Command(rg.path, {
      args,
      cwd: options.cwd,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#stderr = readCapped(this.#child.stderr);
    const onAbort = () => this.stop();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    if (options.signal?.aborted) this.stop();
    this.exit = this.#child.status.then(async (status) => {
      options.signal?.removeEventListener("abort", onAbort);
      return { code: this.#stopped ? null : status.code, stderr: await this.#stderr, stopped: this.#stopped };
    });
  }

  /**
   * stdout split into lines (without the newline); ends when ripgrep ends or is stopped. A line longer than
   * `maxChars` is never built whole: from that point its pieces go to `oversize()` (by default: kept up to
   * `maxChars`, the rest dropped), whose `finish()` is yielded instead.
   */
  async *lines(options: LinesOptions = {}): AsyncGenerator<string> {
    const decoder = new TextDecoder();
    const reader = this.#child.stdout.getReader();
    const maxChars = options.maxChars ?? Infinity;
    // The unterminated tail, kept as parts: a 50 MB minified line arrives in hundreds of chunks, and
    // rescanning a growing string for "\n" on every chunk would be quadratic.
    const parts: string[] = [];
    let partsChars = 0;
    let long: LineSink | null = null;
    const add = (piece: string) => {
      if (long) return long.push(piece);
      parts.push(piece);
      partsChars += piece.length;
      if (partsChars <= maxChars) return;
      long = options.oversize?.() ?? truncator(maxChars);
      for (const part of parts) long.push(part);
      parts.length = 0;
    };
    const take = (): string => {
      const line = long ? long.finish() : parts.length === 1 ? parts[0] : parts.join("");
      parts.length = 0;
      partsChars = 0;
      long = null;
      return line;
    };
    let finished = false;
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        const text = decoder.decode(value, { stream: true });
        let start = 0;
        let newline: number;
        while ((newline = text.indexOf("\n", start)) >= 0) {
          add(text.slice(start, newline));
          start = newline + 1;
          yield take();
          if (this.#stopped) return;
        }
        if (start < text.length) add(text.slice(start));
      }
      add(decoder.decode());
      finished = true;
      const last = take();
      if (last) yield last;
    } finally {
      // Reached on early return too: stop ripgrep and release the pipe.
      if (!finished) this.stop();
      await reader.cancel().catch(() => {});
    }
  }

  /** stdout split at `separator` (a byte: 0 for `--null`) as raw bytes, for names that may not be UTF-8. */
  async *records(separator: number): AsyncGenerator<Uint8Array> {
    const reader = this.#child.stdout.getReader();
    let rest = new Uint8Array(0);
    let finished = false;
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        const chunk = rest.length ? concat(rest, value) : value;
        let start = 0;
        let end: number;
        while ((end = chunk.indexOf(separator, start)) >= 0) {
          yield chunk.slice(start, end);
          start = end + 1;
          if (this.#stopped) return;
        }
        rest = chunk.slice(start);
      }
      finished = true;
      if (rest.length) yield rest;
    } finally {
      if (!finished) this.stop();
      await reader.cancel().catch(() => {});
    }
  }

  /** Kills ripgrep; lines already read stay valid. */
  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    try {
      this.#child.kill("SIGKILL");
    } catch {
      // Already exited.
    }
  }
}

async function readCapped(stream: ReadableStream<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of stream) {
    if (text.length < STDERR_CAP) text += decoder.decode(chunk, { stream: true });
  }
  return text.slice(0, STDERR_CAP).trim();
}
