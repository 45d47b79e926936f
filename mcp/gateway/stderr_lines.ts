/**
 * A stdio server's stderr into the gateway's log, bounded: split into lines (a line never grows past
 * {@link MAX_LINE_CHARS} while it waits for its newline), each line made a failure text (redact.ts), and a
 * budget of characters per server, kept across its restarts, that refills with time: a server that floods
 * its stderr (200 KB a crash, a debug loop) costs the log a few kilobytes a minute, with a note of what was
 * dropped.
 * @module
 */
import { formatCount } from "../../lib/text/format.ts";

/** The longest piece of one line kept while waiting for its end; the rest of the line is dropped. */
export const MAX_LINE_CHARS = 16_384;
/** Characters of stderr one server may log at once, and regains per minute. */
export const STDERR_BUDGET_CHARS = 16_384;

/** One server's allowance of logged stderr: a token bucket of characters. */
export class LogBudget {
  readonly #now: () => number;
  readonly #size: number;
  #left: number;
  #at: number;
  #dropped = 0;

  constructor(now: () => number, size = STDERR_BUDGET_CHARS) {
    this.#now = now;
    this.#size = size;
    this.#left = size;
    this.#at = now();
  }

  /**
   * The lines to log for the line `make` builds (only called when there is room: shaping costs), with a note
   * when lines were dropped before it or when this one uses the budget up.
   */
  admit(make: () => string): string[] {
    const now = this.#now();
    this.#left = Math.min(this.#size, this.#left + (now - this.#at) * this.#size / 60_000);
    this.#at = now;
    if (this.#left <= 0) {
      this.#dropped++;
      return [];
    }
    const line = make();
    const out = this.#dropped
      ? [`stderr: ${formatCount(this.#dropped)} lines not logged (over its log budget)`, line]
      : [line];
    this.#dropped = 0;
    this.#left -= line.length;
    if (this.#left <= 0) out.push("stderr: over its log budget; the next lines are dropped for a while");
    return out;
  }
}

/** How lines are shaped and where they go. */
export interface StderrOptions {
  /** Makes one raw line loggable (cut and redacted). */
  shape(line: string): string;
  /** Logs one line. */
  write(line: string): void;
  budget: LogBudget;
}

/** Lines of its stderr kept to say why a server that crashed at start did. */
const TAIL_LINES = 5;

/** Receives one child's stderr chunks and logs its lines within its server's budget. */
export class StderrLines {
  readonly #options: StderrOptions;
  readonly #decoder = new TextDecoder();
  #pending = "";
  /** The last non-blank lines, raw (each cut at MAX_LINE_CHARS), whatever the budget logged. */
  #recent: string[] = [];
  /** Dropping the rest of an overlong line until its newline. */
  #skipping = false;

  constructor(options: StderrOptions) {
    this.#options = options;
  }

  /** One chunk as the pipe delivered it. */
  push(chunk: Uint8Array | string): void {
    const text = typeof chunk === "string" ? chunk : this.#decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n", start)) {
      this.#take(text.slice(start, end));
      this.#line(this.#pending);
      this.#pending = "";
      this.#skipping = false;
      start = end + 1;
    }
    this.#take(text.slice(start));
  }

  #take(piece: string): void {
    if (this.#skipping) return;
    this.#pending += piece;
    if (this.#pending.length <= MAX_LINE_CHARS) return;
    this.#line(this.#pending.slice(0, MAX_LINE_CHARS));
    this.#pending = "";
    this.#skipping = true;
  }

  /** The last few non-blank lines, the one still waiting for its newline included: raw, not yet shaped. */
  tail(): string[] {
    return this.#pending.trim() ? [...this.#recent, this.#pending].slice(-TAIL_LINES) : [...this.#recent];
  }

  #line(raw: string): void {
    if (!raw.trim()) return;
    this.#recent.push(raw);
    if (this.#recent.length > TAIL_LINES) this.#recent.shift();
    for (const line of this.#options.budget.admit(() => this.#options.shape(raw))) this.#options.write(line);
  }
}
