/** The job registry: starts jobs with a resolved shell, cwd and env, enforces limits, evicts old jobs. */
import { ToolError } from "../../lib/mcp/errors.ts";
import { processRules } from "../../lib/platform/mod.ts";
import type { OutputLogOptions } from "../../lib/process/output_log.ts";
import { findOnPath } from "../../lib/platform/which.ts";
import { capQuote } from "../../lib/text/cap.ts";
import { listProcesses } from "../../lib/process/processes.ts";
import { killMarked } from "../../lib/process/tree_kill.ts";
import { GroupWatchdog } from "../../lib/process/watchdog.ts";
import type { Workspace } from "../../lib/workspace/workspace.ts";
import { jobEnv, MARKER_NAME } from "./env.ts";
import { Job } from "./job.ts";

/** Shells a caller may name; each is looked up on PATH. */
export const SHELLS = ["bash", "sh", "zsh", "pwsh", "powershell", "cmd"] as const;

/** One of {@link SHELLS}. */
export type ShellChoice = typeof SHELLS[number];

/** What the registry is built from. */
export interface JobsOptions {
  workspace: Workspace;
  /** The server's environment: PATH for finding shells, the source of allowlisted variables. */
  serverEnv: Record<string, string>;
  /** Parsed `SHELL_MCP_ENV_ALLOW`. */
  envAllow?: readonly string[];
  /** Default 32. */
  maxRunning?: number;
  /** Finished jobs kept for reading; default 100. */
  keepFinished?: number;
  /** Between the polite signal and SIGKILL; default 2000. */
  graceMs?: number;
  log?: OutputLogOptions;
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
  #shells = new Map<string, Promise<string | null>>();
  #closed = false;
  /** Starts between their slot check and their spawn: they hold a slot while they resolve shell and cwd. */
  #starting = 0;
  /** Tells this registry's jobs from those of other servers (or other instances in one process). */
  #markerPrefix = `${MARKER_NAME}=${Deno.pid}-${crypto.randomUUID().slice(0, 8)}.`;
  /** Kills every job's group, and what carries our marker, when this process dies without cleaning up. */
  #watchdog: GroupWatchdog;

  constructor(options: JobsOptions) {
    this.#options = options;
    this.#watchdog = new GroupWatchdog({
      // A BRE for grep: only the dot of the prefix is special.
      markerPattern: `^${this.#markerPrefix.replaceAll(".", "\\.")}`,
      path: options.serverEnv.PATH,
    });
  }

  /** Starts a job; throws when the shell, cwd or a free slot is missing. */
  async start(request: StartRequest): Promise<Job> {
    this.#assertOpen();
    const maxRunning = this.#options.maxRunning ?? 32;
    const running = [...this.#jobs.values()].filter((job) => job.state === "running").length;
    if (running + this.#starting >= maxRunning) {
      throw new ToolError(
        "unavailable",
        `Cannot start "${
          capQuote(request.command)
        }": ${maxRunning} jobs are already running (the limit); stop one with shell_kill`,
      );
    }
    // Reserved before the first await: concurrent starts cannot all pass the check above.
    this.#starting++;
    try {
      const shell = await this.#resolveShell(request.shell);
      const cwd = await this.#resolveCwd(request.cwd);
      // closeAll() may have run during the awaits: never spawn what it can no longer kill.
      this.#assertOpen();
      return this.#spawn(request, shell, cwd);
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

  /** Kills every job tree and releases every pipe; the server's cleanup hook. */
  async closeAll(): Promise<void> {
    this.#closed = true;
    // One look at the process table finds finished jobs whose group still has live members.
    const rows = await listProcesses();
    const liveGroups = new Set(rows?.filter((row) => !row.zombie).map((row) => row.pgid));
    await Promise.all(
      [...this.#jobs.values()].map((job) => job.dispose({ sweep: rows !== null && liveGroups.has(job.pid) })),
    );
    // Linux: whatever still carries one of our markers (left its group, redirected its output) dies too.
    await killMarked(this.#markerPrefix);
    await this.#watchdog.close();
  }

  #assertOpen(): void {
    if (this.#closed) throw new ToolError("unavailable", "Cannot start a job: the server is shutting down");
  }

  #spawn(request: StartRequest, shell: string, cwd: string): Job {
    const id = this.#nextId++;
    const marker = `${this.#markerPrefix}${id}`;
    const { env, clearEnv } = jobEnv({
      serverEnv: this.#options.serverEnv,
      allow: this.#options.envAllow,
      overlay: request.env,
      marker,
    });
    const job = Job.spawn({
      id,
      command: request.command,
      shell,
      cwd,
      env,
      clearEnv,
      marker,
      stdin: request.stdin ?? "null",
      mergeStderr: request.mergeStderr ?? false,
      timeoutMs: request.timeoutMs,
      graceMs: this.#options.graceMs ?? 2000,
      log: this.#options.log,
      watchdog: this.#watchdog,
      now: this.#options.now,
    });
    this.#jobs.set(id, job);
    job.finished.then(() => this.#evict());
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

  async #resolveShell(choice: ShellChoice | undefined): Promise<string> {
    const env = {
      PATH: this.#options.serverEnv.PATH ?? this.#options.serverEnv.Path,
      PATHEXT: this.#options.serverEnv.PATHEXT,
    };
    const lookup = (name: string) => {
      if (!this.#shells.has(name)) this.#shells.set(name, findOnPath(name, env));
      return this.#shells.get(name)!;
    };
    const candidates = choice ? [choice] : processRules.defaultShells;
    for (const name of candidates) {
      const found = await lookup(name);
      if (found) return found;
    }
    const found = await Promise.all(SHELLS.map(async (name) => (await lookup(name)) ? name : undefined));
    const available = found.filter(Boolean).join(", ") || "none";
    const wanted = choice
      ? `shell "${choice}"`
      : `a default shell (${processRules.defaultShells.join(", ")})`;
    throw new ToolError("unavailable", `Cannot find ${wanted} on PATH; available: ${available}`);
  }

  async #resolveCwd(cwd: string | undefined): Promise<string> {
    const real = await this.#options.workspace.resolveInside(cwd ?? ".");
    let info: Deno.FileInfo;
    try {
      info = await Deno.stat(real);
    } catch {
      throw new ToolError(
        "not_found",
        `Cannot run in "${capQuote(cwd ?? ".")}": no such folder in the workspace`,
      );
    }
    if (!info.isDirectory) {
      throw new ToolError("invalid_argument", `Cannot run in "${capQuote(cwd ?? ".")}": it is a file`);
    }
    return real;
  }
}
