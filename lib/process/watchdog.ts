/**
 * A watchdog process that kills registered process groups when this process ends by any cause, SIGKILL
 * included: it reads a pipe that only this process holds open, and EOF on it means we are gone. On Linux it
 * also kills every descendant of those groups and of the orphans this process adopted (adoption.ts), whose
 * parent links still lead to them after our death, and checks each process's start time first: a pid that
 * was reused meanwhile names someone else. POSIX only (see `processRules.watchdogArgv`); elsewhere every
 * call is a no-op.
 * @module
 */
import { processRules } from "../platform/mod.ts";
import { log } from "../log.ts";
import { adoption } from "./adoption.ts";

/** Options of {@link GroupWatchdog}. */
export interface WatchdogOptions {
  /** grep BRE for environment entries whose processes die with the groups (Linux /proc). */
  markerPattern: string;
  /** PATH for the watchdog's `grep` and `sleep`; it gets no other variable. */
  path?: string;
}

const encoder = new TextEncoder();

/** One watchdog process for many process groups, started at the first {@link GroupWatchdog.watch}. */
export class GroupWatchdog {
  #options: WatchdogOptions;
  #groups = new Set<number>();
  #child: Deno.ChildProcess | undefined;
  #writer: WritableStreamDefaultWriter<Uint8Array> | undefined;
  #closed = false;
  #written: Promise<void> = Promise.resolve();
  #unsubscribe: (() => void) | undefined;

  constructor(options: WatchdogOptions) {
    this.#options = options;
  }

  /** Kills group `pgid` if this process dies before {@link unwatch}. */
  watch(pgid: number): void {
    if (this.#closed) return;
    this.#groups.add(pgid);
    if (!this.#writer) this.#start();
    else this.#send(`+ ${pgid}\n`);
  }

  /** Forgets group `pgid` (its processes are gone, so its id may be reused). */
  unwatch(pgid: number): void {
    if (this.#groups.delete(pgid)) this.#send(`- ${pgid}\n`);
  }

  /** Resolves once everything told so far has reached the watchdog's pipe. */
  flushed(): Promise<void> {
    return this.#written;
  }

  /** Ends the watchdog without killing anything: the caller has already killed what it watched. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#groups.clear();
    this.#unsubscribe?.();
    const child = this.#child;
    const writer = this.#writer;
    this.#child = this.#writer = undefined;
    if (!child || !writer) return;
    await writer.write(encoder.encode("q\n")).catch(() => {});
    await writer.close().catch(() => {});
    await child.status;
  }

  /** Spawns the watchdog and tells it every group watched so far (also after an earlier one died). */
  #start(): void {
    const argv = processRules.watchdogArgv(this.#options.markerPattern);
    if (!argv) return;
    let child: Deno.ChildProcess;
    try {
      child = new Deno.Command(argv[0], {
        args: argv.slice(1),
        stdin: "piped",
        stdout: "null",
        stderr: "null",
        clearEnv: true,
        env: this.#options.path ? { PATH: this.#options.path } : {},
        // Its own session: a terminal's Ctrl-C to the server's group must not end it.
        detached: true,
      }).spawn();
    } catch (error) {
      log.error("watchdog: cannot start it; jobs die with this process only through its cleanup", error);
      return;
    }
    // Deno reaps it: it is no orphan of ours.
    const disown = adoption.own(child.pid, { keepsScanning: false });
    const writer = child.stdin.getWriter();
    this.#child = child;
    this.#writer = writer;
    child.status.then(() => {
      disown();
      if (this.#child !== child) return;
      log.error("watchdog: it ended unexpectedly; the next job starts a new one");
      this.#child = this.#writer = undefined;
      writer.abort().catch(() => {});
    });
    this.#unsubscribe?.();
    this.#unsubscribe = adoption.subscribe({
      adopted: (pids) => this.#send(pids.map((pid) => `r ${pid}\n`).join("")),
      gone: (pids) => this.#send(pids.map((pid) => `x ${pid}\n`).join("")),
    });
    const groups = [...this.#groups].map((pgid) => `+ ${pgid}\n`);
    this.#send([...groups, ...adoption.adopted.map((pid) => `r ${pid}\n`)].join(""));
  }

  #send(lines: string): void {
    const writer = this.#writer;
    if (!writer || lines === "") return;
    this.#written = writer.write(encoder.encode(lines)).catch(() => {
      // The watchdog died: its status handler above clears it, and the next watch() starts another.
    });
  }
}
