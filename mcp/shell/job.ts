/**
 * One background job: a shell process in its own process group, its bounded output log, its final state.
 * Completion comes from the process status, never from pipe EOF: a grandchild may hold the pipes forever.
 * @module
 */
import { ToolError } from "../../lib/mcp/errors.ts";
import { type OwnedTree, ownProcessTree, processRules } from "../../lib/platform/mod.ts";
import { capQuote } from "../../lib/text/cap.ts";
import { type Drain, drainStream } from "../../lib/process/drain.ts";
import {
  incompleteUtf8Tail,
  type LogSlice,
  OutputLog,
  type OutputLogOptions,
} from "../../lib/process/output_log.ts";
import { killTree } from "../../lib/process/tree_kill.ts";
import { adoption } from "../../lib/process/adoption.ts";
import { type GroupWatch, Leftovers } from "./leftovers.ts";
import { type Launch, prepareLaunch } from "./launch.ts";
import { StdinClosedError, StdinQueue, type StdinReport } from "./stdin.ts";
import type { SandboxedJob } from "../../lib/sandbox/sandbox.ts";

/** A read of a job's output; `midLine` when it jumped the dropped middle to a point inside a line. */
export type JobSlice = LogSlice & { midLine?: boolean };

/** Where a job is in its life. */
export type JobState = "running" | "exited" | "killed" | "timeout";

/** Everything needed to spawn a job; paths and env already resolved. */
export interface JobSpec {
  id: number;
  command: string;
  /** Absolute path of the shell. */
  shell: string;
  cwd: string;
  env: Record<string, string>;
  clearEnv: boolean;
  /** `NAME=value` also present in `env`: finds processes that left the group. */
  marker: string;
  stdin: "null" | "pipe";
  mergeStderr: boolean;
  timeoutMs: number;
  graceMs: number;
  log?: OutputLogOptions;
  /** Kills the job's group if the server dies (POSIX). */
  watchdog?: GroupWatch;
  /** The job's sandbox, when it runs in one. */
  sandbox?: SandboxedJob;
  now?: () => number;
}

/** After the shell exits, how long output still in the pipes may take to arrive. */
const DRAIN_GRACE_MS = 200;

/** A spawned job. Create with {@link Job.spawn}. */
export class Job {
  readonly id: number;
  readonly command: string;
  readonly pid: number;
  readonly startedAt: number;
  readonly log: OutputLog;
  readonly stdinMode: "null" | "pipe";
  /** Where the last read ended: the default cursor of the next one. */
  cursor = 0;
  #state: JobState = "running";
  #exitCode: number | null = null;
  #signal: string | null = null;
  #endedAt: number | undefined;
  #leftovers: Leftovers;
  #leftoversEnd: "killed" | "timeout" | undefined;
  #pendingState: JobState | undefined;
  #child: Deno.ChildProcess;
  #drains: Drain[];
  #stdin: StdinQueue | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #waiters = new Set<() => void>();
  #finished: Promise<void>;
  #killing: Promise<void> | undefined;
  #spec: JobSpec;
  #launch: Launch;
  #owned: OwnedTree | null;
  #disown: () => void;
  #now: () => number;
  /** Whether the sandbox's explanation of a refusal was looked for (once the job ended; said once). */
  #sandboxNoteTaken = false;

  private constructor(spec: JobSpec, child: Deno.ChildProcess, launch: Launch, owned: OwnedTree | null) {
    // Deno reaps the shell: never the adoption scan (registered in the turn that spawned it).
    this.#disown = adoption.own(child.pid);
    this.#spec = spec;
    this.#launch = launch;
    this.#owned = owned;
    this.#now = spec.now ?? Date.now;
    this.id = spec.id;
    this.command = spec.command;
    this.pid = child.pid;
    this.stdinMode = spec.stdin;
    this.startedAt = this.#now();
    this.log = new OutputLog(spec.log);
    this.#child = child;
    this.#stdin = spec.stdin === "pipe" ? new StdinQueue(child.stdin) : undefined;
    this.#drains = [
      drainStream(child.stdout, (bytes) => this.#append("stdout", bytes)),
      drainStream(child.stderr, (bytes) => this.#append("stderr", bytes)),
    ];
    // After the shell's end, waiters also wake when a pipe closes: the last holder of the output is gone.
    for (const drain of this.#drains) drain.done.then(() => this.#state !== "running" && this.#notify());
    this.#leftovers = new Leftovers({
      pgid: child.pid,
      marker: spec.marker,
      watchdog: spec.watchdog,
      owned,
      isSandboxProcess: spec.sandbox?.isSandboxProcess,
      onGone: () => {
        // Gone or killed: nothing is left for kill-on-close to end, and no sandboxed process needs the
        // placeholders of its protected names any more.
        this.#owned?.close();
        spec.sandbox?.release().catch(() => {});
        clearTimeout(this.#timer);
        this.#notify();
      },
    });
    // Also covers what the shell leaves running: the timer ends only when the whole group is gone.
    this.#timer = setTimeout(() => this.kill({ reason: "timeout" }), spec.timeoutMs);
    this.#finished = this.#watch();
  }

  /** Spawns the job's shell; a spawn failure (missing cwd or shell) becomes a ToolError. */
  static spawn(spec: JobSpec): Job {
    let launch: Launch | undefined;
    let child: Deno.ChildProcess;
    let owned: OwnedTree | null;
    try {
      launch = prepareLaunch(spec.shell, spec.command, {
        mergeStderr: spec.mergeStderr,
        scriptDir: spec.sandbox?.scriptDir,
        visibleScriptDir: spec.sandbox?.visibleScriptDir,
      });
      // The job's parent is started with the job's environment: it shows the job no secret of the server.
      // Sandboxed, that parent runs bwrap, whose init (the PID namespace's) is the shell's parent.
      // Sandboxed, the launchers outside it get the job's env without what steers a program (LD_PRELOAD,
      // PATH…); bwrap sets those inside. `spec.env` is then the whole environment (jobs.ts).
      const { invocation, env } = spec.sandbox
        ? spec.sandbox.wrap(launch.invocation, spec.env)
        : { invocation: processRules.jobParent(launch.invocation), env: spec.env };
      child = new Deno.Command(invocation.program, {
        args: invocation.args,
        cwd: spec.cwd,
        env,
        clearEnv: spec.sandbox ? true : spec.clearEnv,
        stdin: spec.stdin === "pipe" ? "piped" : "null",
        stdout: "piped",
        stderr: "piped",
        detached: processRules.detached,
        windowsRawArguments: invocation.rawArguments ?? false,
      }).spawn();
      // Windows: in this same turn, while Deno still holds the shell's handle, so the pid is surely the shell.
      owned = ownProcessTree(child.pid);
    } catch (error) {
      launch?.cleanup();
      spec.sandbox?.release().catch(() => {});
      const reason = error instanceof Error ? error.message : String(error);
      throw new ToolError("unavailable", `Cannot start "${capQuote(spec.command)}": ${capQuote(reason)}`);
    }
    return new Job(spec, child, launch, owned);
  }

  /**
   * Once the job ended: the sandbox's line explaining a refusal in its error output, the first time it is
   * asked for (it is said once); undefined otherwise.
   */
  takeSandboxNote(): string | undefined {
    if (!this.#spec.sandbox || this.#state === "running" || this.#sandboxNoteTaken) return undefined;
    this.#sandboxNoteTaken = true;
    return this.#spec.sandbox.explain(this.#errorText());
  }

  /** Final once the shell exited and its output was collected. */
  get state(): JobState {
    return this.#state;
  }

  /** Exit code; null while running or when a signal ended it. */
  get exitCode(): number | null {
    return this.#exitCode;
  }

  /** The signal that ended the shell, if any. */
  get signal(): string | null {
    return this.#signal;
  }

  /** Whether processes of the job outlived its shell (they may still write output). */
  get orphans(): boolean {
    return this.#leftovers.alive;
  }

  /** Command lines of the processes that outlived the shell (as of the last check). */
  get background(): string[] {
    return this.#leftovers.commands;
  }

  /** How processes that outlived the shell were ended, when shell_kill or timeout_s ended them. */
  get backgroundEnd(): "killed" | "timeout" | undefined {
    return this.#leftoversEnd;
  }

  /** What outlived the shell, while it lives and is not being killed: for a look shared by all jobs. */
  get leftovers(): Leftovers | null {
    return this.#leftovers.alive && this.#killing === undefined ? this.#leftovers : null;
  }

  /** Re-checks whether processes that outlived the shell are still alive. */
  async refreshOrphans(): Promise<boolean> {
    if (this.#leftovers.alive && this.#killing === undefined) await this.#leftovers.check();
    return this.#leftovers.alive;
  }

  /** Whether both output pipes are closed: nothing more can arrive. */
  get quiet(): boolean {
    return this.#drains.every((drain) => drain.ended);
  }

  /** The shell exited and nothing holds its output open: no more output can come. */
  get ended(): boolean {
    return this.#state !== "running" && this.quiet;
  }

  /** Milliseconds from start to end (or to now). */
  runtimeMs(): number {
    return (this.#endedAt ?? this.#now()) - this.startedAt;
  }

  /** Settles when the state is final. */
  get finished(): Promise<void> {
    return this.#finished;
  }

  /**
   * Resolves when output past `since` exists, the job finished and nothing holds its output open any more,
   * `timeoutMs` passed or `signal` aborted.
   */
  changed(since: number, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (this.log.total > since || this.ended || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.#waiters.add(done);
      signal?.addEventListener("abort", done);
    });
  }

  /**
   * Reads output from `since`, never ending inside a UTF-8 character that may still be completed. A `since`
   * inside the dropped middle resumes at the first line start of the kept tail (the skipped fragment
   * counts as dropped), or mid-line when the tail has no newline near its start.
   */
  read(since: number, maxBytes?: number): JobSlice {
    const log = this.log;
    let start = since;
    let midLine = false;
    if (since >= log.headBytes && since < log.tailStart) {
      const lineStart = log.lineStartAfter(log.tailStart);
      midLine = lineStart === -1;
      start = midLine ? log.tailStart : lineStart;
    }
    const read = log.read(start, maxBytes);
    const slice: JobSlice = start === since ? read : { ...read, dropped: start - since, midLine };
    const more = slice.next < this.log.total || !this.quiet;
    const last = slice.last;
    if (!more || !last) return slice;
    const trim = incompleteUtf8Tail(slice[last]);
    if (trim === 0) return slice;
    return { ...slice, [last]: slice[last].subarray(0, slice[last].length - trim), next: slice.next - trim };
  }

  /** Bytes after cursor `from` still kept, and those after it that were dropped from the middle. */
  unread(from: number): { kept: number; dropped: number } {
    const log = this.log;
    if (from >= log.total) return { kept: 0, dropped: 0 };
    const dropped = Math.max(0, log.tailStart - Math.max(from, log.headBytes));
    return { kept: log.total - Math.max(from, 0) - dropped, dropped };
  }

  /** Queues `text` for the job's stdin (`eof` closes it after); waits at most `waitMs` for the job to take it. */
  async write(
    text: string,
    eof: boolean,
    options: { waitMs: number; signal?: AbortSignal },
  ): Promise<StdinReport> {
    if (!this.#stdin?.open) {
      throw this.stdinMode === "pipe"
        ? new ToolError(
          "conflict",
          `Cannot write to job ${this.id}: its stdin is closed (state ${this.#state})`,
        )
        : new ToolError(
          "invalid_argument",
          `Cannot write to job ${this.id}: it has no stdin; start it with shell_start stdin="pipe"`,
        );
    }
    try {
      return await this.#stdin.write(text, eof, options);
    } catch (error) {
      if (!(error instanceof StdinClosedError)) throw error;
      throw new ToolError(
        "conflict",
        `Cannot write to job ${this.id}: its ${error.message} (state ${this.#state})`,
      );
    }
  }

  /** Kills the job's whole process tree (also what outlived an exited shell) and waits for the end. */
  kill(
    options: { signal?: Deno.Signal; reason?: "killed" | "timeout" } = {},
  ): Promise<void> {
    if (this.#endedAt === undefined) this.#pendingState ??= options.reason ?? "killed";
    this.#killing ??= (async () => {
      const leftovers = this.#leftovers.alive;
      // killTree checks the process table first, so a finished tree costs one look and no signal.
      if (this.#endedAt === undefined || leftovers || !this.quiet) {
        await killTree(this.pid, {
          marker: this.#spec.marker,
          signal: options.signal,
          graceMs: this.#spec.graceMs,
          owned: this.#owned,
          // Once the shell is reaped its pid may name another process: then only the Job Object kills.
          rootRunning: this.#endedAt === undefined,
        });
      }
      await this.#finished;
      if (leftovers) this.#leftoversEnd = options.reason ?? "killed";
      this.#leftovers.release();
      // Whatever still holds the pipes is beyond reach (no /proc): stop reading.
      await Promise.all(this.#drains.map((drain) => drain.cancel()));
      this.#notify();
    })();
    return this.#killing;
  }

  /** Ends everything the job holds: its tree, pipes, stdin and timer. */
  async dispose(): Promise<void> {
    await this.kill();
    // The tree is dead, so queued input fails at once; only a reader beyond reach could hold it longer.
    await this.#stdin?.close();
  }

  /** The error output kept (stdout too when merged into it), decoded. */
  #errorText(): string {
    const decoder = new TextDecoder();
    let text = "";
    for (let at = 0; at < this.log.total;) {
      const slice = this.log.read(at, 256 * 1024);
      text += decoder.decode(this.#spec.mergeStderr ? slice.stdout : slice.stderr, { stream: true });
      if (slice.next <= at) break;
      at = slice.next;
    }
    return text;
  }

  #append(stream: "stdout" | "stderr", bytes: Uint8Array): void {
    this.log.append(stream, bytes);
    this.#notify();
  }

  #notify(): void {
    if (this.#waiters.size === 0) return; // the common case, once per output chunk
    for (const waiter of [...this.#waiters]) waiter();
  }

  async #watch(): Promise<void> {
    const status = await this.#child.status;
    // Reaped: what it left running is now adopted by us (Linux), and its pid may name another process.
    this.#disown();
    this.#launch.cleanup(); // the shell read its script file (if any) to the end
    this.#endedAt = this.#now();
    this.#exitCode = status.signal ? null : status.code;
    this.#signal = status.signal;
    const drained = Promise.all(this.#drains.map((drain) => drain.done));
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([drained, new Promise((resolve) => graceTimer = setTimeout(resolve, DRAIN_GRACE_MS))]);
    clearTimeout(graceTimer);
    // What the shell left running may hold no pipe at all (`cmd >/dev/null &`): ask the process table.
    if (this.#pendingState === undefined) await this.#leftovers.check();
    this.#state = this.#pendingState ?? "exited";
    if (this.#state === "timeout") this.#exitCode = null;
    // Queued input may wait on a background process that holds stdin: the job's end waits a second at most.
    await this.#stdin?.close();
    this.#notify();
  }
}
