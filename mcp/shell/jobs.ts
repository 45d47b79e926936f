/** The job registry: starts jobs with a resolved shell, cwd and env, enforces limits, evicts old jobs. */
import { ToolError } from "../../lib/mcp/errors.ts";
import type { OutputLogOptions } from "../../lib/process/output_log.ts";
import { capQuote } from "../../lib/text/cap.ts";
import { helperPath, processIdentity } from "../../lib/process/processes.ts";
import { killMarked } from "../../lib/process/tree_kill.ts";
import { adoption } from "../../lib/process/adoption.ts";
import { GroupWatchdog } from "../../lib/process/watchdog.ts";
import type { Workspace } from "../../lib/workspace/workspace.ts";
import { jobEnv, MARKER_NAME } from "./env.ts";
import { Job } from "./job.ts";
import { LeftoverWatch } from "./leftover_watch.ts";
import { resolveCwd, type ShellChoice, ShellFinder } from "./resolve.ts";
import type { Sandbox, SandboxedJob } from "../../lib/sandbox/sandbox.ts";

/** What the registry is built from. */
export interface JobsOptions {
  workspace: Workspace;
  /** The server's environment: PATH for finding shells, the source of allowlisted variables. */
  serverEnv: Record<string, string>;
  /** Parsed `SHELL_MCP_ENV_ALLOW`. */
  envAllow?: readonly string[];
  /** Jobs running or whose background processes still run; default 32. */
  maxRunning?: number;
  /** Finished jobs kept for reading; default 100. */
  keepFinished?: number;
  /** Between the polite signal and SIGKILL; default 2000. */
  graceMs?: number;
  log?: OutputLogOptions;
  /** Runs every job in the OS sandbox, as its mode says; none: jobs run unsandboxed. */
  sandbox?: Sandbox;
  now?: () => number;
}

/** A start request, as validated by the tool schema. */
export interface StartRequest {
  command: string;
  shell?: ShellChoice;
  cwd?: string;
  env?: Record<string, string>;
  timeoutMs: number;
  stdin?: "null" | "pipe";
  mergeStderr?: boolean;
}

/** All jobs of one server. */
export class JobRegistry {
  #jobs = new Map<number, Job>();
  #nextId = 1;
  #options: JobsOptions;
  #shells: ShellFinder;
  #closed = false;
  #closing: Promise<void> | undefined;
  /** Starts between their slot check and their spawn: they hold a slot while they resolve shell and cwd. */
  #starting = 0;
  /**
   * `SHELL_MCP_JOB=<pid>-<random>[-<pid namespace>-<start time>].`: tells this registry's jobs from those of
   * other servers (or other instances in one process); on Linux it also names this server unambiguously, so
   * that another server judges it dead only when it is (orphans.ts). Resolved before the first spawn.
   */
  #markerPrefix: Promise<string> | undefined;
  #random = crypto.randomUUID().slice(0, 8);
  /** Kills every job's group, and what carries our marker, when this process dies without cleaning up. */
  #watchdog: GroupWatchdog | undefined;
  #leftovers = new LeftoverWatch(() => this.list().flatMap((job) => job.leftovers ?? []));
  /** Closing the last registry of the process also kills the orphans the process adopted. */
  #closeRegistry = adoption.openRegistry();

  constructor(options: JobsOptions) {
    this.#options = options;
    this.#shells = new ShellFinder(options.serverEnv);
  }

  /** Starts a job; throws when the shell, cwd or a free slot is missing. */
  async start(request: StartRequest): Promise<Job> {
    this.#assertOpen();
    // Finished jobs whose processes still run count too: each costs a watch, and they add up unseen.
    if (this.#busy().length + this.#starting >= this.#maxRunning) await this.#leftovers.refresh();
    const busy = this.#busy();
    if (busy.length + this.#starting >= this.#maxRunning) {
      const ids = busy.map((job) => job.id).slice(-10).join(", ");
      const what = busy.every((job) => job.state === "running")
        ? "jobs are already running"
        : "jobs are running or left processes running";
      throw new ToolError(
        "unavailable",
        `Cannot start "${capQuote(request.command)}": ${this.#maxRunning} ${what} (the limit); stop one ` +
          `with shell_kill (jobs ${ids})`,
      );
    }
    // Reserved before the first await: concurrent starts cannot all pass the check above.
    this.#starting++;
    try {
      const shell = await this.#shells.resolve(request.shell);
      const cwd = await resolveCwd(this.#options.workspace, request.cwd);
      const prefix = await this.#prefix();
      const sandbox = await this.#options.sandbox?.prepare(cwd) ?? undefined;
      try {
        // closeAll() may have run during the awaits: never spawn what it can no longer kill.
        this.#assertOpen();
      } catch (error) {
        await sandbox?.release();
        throw error;
      }
      return this.#spawn(request, shell, cwd, prefix, sandbox);
    } finally {
      this.#starting--;
    }
  }

  /** The job with `id`, or a not_found error listing what exists. */
  get(id: number): Job {
    const job = this.#jobs.get(id);
    if (job) return job;
    const known = [...this.#jobs.keys()];
    const hint = known.length ? `known jobs: ${known.slice(-10).join(", ")}` : "no jobs yet";
    throw new ToolError(
      "not_found",
      `Cannot find job ${id}: no such job (finished jobs are evicted; ${hint})`,
    );
  }

  /** Every job, oldest first. */
  list(): Job[] {
    return [...this.#jobs.values()];
  }

  /** Looks at every job's background processes now (one look at the process table for all). */
  async refreshLeftovers(): Promise<void> {
    // Also our orphans: the watchdog learns of any adopted since the last periodic look before we answer.
    adoption.scan();
    await Promise.all([this.#leftovers.refresh(), this.#watchdog?.flushed()]);
  }

  /** Kills every job tree and releases every pipe; the server's cleanup hook. Safe to call twice. */
  closeAll(): Promise<void> {
    this.#closed = true;
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    await this.#leftovers.close();
    // Running jobs and those whose processes outlived them: each kill signals a finished job's group only
    // while it is provably still ours (its number may have been reused since its shell was reaped).
    await Promise.all([...this.#jobs.values()].map((job) => job.dispose()));
    // Linux: whatever still carries one of our markers (left its group, redirected its output) dies too.
    if (this.#markerPrefix) await killMarked(await this.#markerPrefix);
    // Orphans that left group, session and marker are ours by adoption; whose job they were is not known.
    if (this.#closeRegistry()) await adoption.killAll(this.#options.graceMs ?? 2000);
    await this.#watchdog?.close();
    // Every job is gone: their temp folder goes too.
    await this.#options.sandbox?.close();
  }

  #assertOpen(): void {
    if (this.#closed) throw new ToolError("unavailable", "Cannot start a job: the server is shutting down");
  }

  /** The marker prefix, found out once (one look at /proc on Linux). */
  #prefix(): Promise<string> {
    this.#markerPrefix ??= processIdentity().then((self) =>
      `${MARKER_NAME}=${Deno.pid}-${this.#random}${self ? `-${self.pidNamespace}-${self.start}` : ""}.`
    );
    return this.#markerPrefix;
  }

  get #maxRunning(): number {
    return this.#options.maxRunning ?? 32;
  }

  /** Jobs that hold a slot: running, or finished with processes still running. */
  #busy(): Job[] {
    return this.list().filter((job) => job.state === "running" || job.orphans);
  }

  #spawn(request: StartRequest, shell: string, cwd: string, prefix: string, sandbox?: SandboxedJob): Job {
    const id = this.#nextId++;
    const marker = `${prefix}${id}`;
    this.#watchdog ??= new GroupWatchdog({
      // A BRE for grep: only the dots of the prefix are special.
      markerPattern: `^${prefix.replaceAll(".", "\\.")}`,
      // Never a folder a job may write first: the watchdog runs grep and kill outside any sandbox.
      path: helperPath(this.#options.serverEnv.PATH),
    });
    const { env, clearEnv } = jobEnv({
      serverEnv: this.#options.serverEnv,
      allow: this.#options.envAllow,
      overlay: request.env,
      marker,
      hideCredentials: sandbox !== undefined,
    });
    const job = Job.spawn({
      id,
      command: request.command,
      shell,
      cwd,
      // A sandboxed job's launchers start from a cleared environment: it must be whole.
      env: sandbox && !clearEnv ? { ...this.#options.serverEnv, ...env } : env,
      clearEnv,
      marker,
      stdin: request.stdin ?? "null",
      mergeStderr: request.mergeStderr ?? false,
      timeoutMs: request.timeoutMs,
      graceMs: this.#options.graceMs ?? 2000,
      log: this.#options.log,
      watchdog: this.#watchdog,
      sandbox,
      now: this.#options.now,
    });
    this.#jobs.set(id, job);
    job.finished.then(() => {
      if (job.orphans) this.#leftovers.kick();
      this.#evict();
    });
    return job;
  }

  /** Keeps the newest finished jobs; jobs whose processes outlived the shell are never evicted. */
  #evict(): void {
    const keep = this.#options.keepFinished ?? 100;
    const finished = [...this.#jobs.values()].filter((job) =>
      job.state !== "running" && job.quiet && !job.orphans
    );
    for (const job of finished.slice(0, Math.max(0, finished.length - keep))) this.#jobs.delete(job.id);
  }
}
