/**
 * Keeps looking at the jobs whose processes outlived their shell, so that their end is noticed (the group is
 * released, the watchdog forgets it, the job may be evicted): one look at the process table for all of them
 * per round, and rounds further apart while nothing changes. 100 leftovers cost about what one does.
 * @module
 */
import { type Leftovers, lookAtLeftovers } from "./leftovers.ts";

/** Timing of {@link LeftoverWatch}. */
export interface LeftoverWatchOptions {
  /** First delay, and the delay after a change; default 2000. */
  minMs?: number;
  /** The delay doubles while nothing changes, up to this; default 30000. */
  maxMs?: number;
}

/** One timer for every job's leftovers. */
export class LeftoverWatch {
  #list: () => Leftovers[];
  #minMs: number;
  #maxMs: number;
  #delayMs: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #last = "";
  #closed = false;
  #inflight: Promise<void> | undefined;

  /** `list` returns the leftovers still alive (of jobs not being killed). */
  constructor(list: () => Leftovers[], options: LeftoverWatchOptions = {}) {
    this.#list = list;
    this.#minMs = options.minMs ?? 2000;
    this.#maxMs = options.maxMs ?? 30_000;
    this.#delayMs = this.#minMs;
  }

  /** A job left processes behind: look again soon. */
  kick(): void {
    this.#delayMs = this.#minMs;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#schedule();
  }

  /** One look now, command lines included (for shell_list, or before refusing a job at the limit). */
  async refresh(): Promise<void> {
    await lookAtLeftovers(this.#list(), { commands: true });
  }

  /** Stops looking (after the look under way, if any). */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#inflight;
  }

  #schedule(): void {
    if (this.#closed || this.#timer !== undefined || this.#list().length === 0) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#inflight = this.#round().catch(() => {});
    }, this.#delayMs);
  }

  async #round(): Promise<void> {
    const leftovers = this.#list();
    await lookAtLeftovers(leftovers);
    const now = leftovers.map((each) => each.pids.join(",")).join(";");
    this.#delayMs = now === this.#last ? Math.min(this.#maxMs, this.#delayMs * 2) : this.#minMs;
    this.#last = now;
    this.#schedule();
  }
}
