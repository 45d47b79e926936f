/**
 * One server's sandbox: the mode in force and why (said in the log at start, in the first tool result and by
 * `deno task doctor`), the plan for the current workspace roots, the private temp and cache folders, and
 * each job's wrapping. Modes: `auto` sandboxes when the OS can and otherwise runs jobs unsandboxed, saying so
 * loudly; `require` refuses to run a job it cannot sandbox; `off` never sandboxes. Never silently off.
 * @module
 */
import { ToolError } from "../mcp/errors.ts";
import { os, userConfigDir } from "../platform/mod.ts";
import type { ShellInvocation } from "../platform/posix.ts";
import { readSandboxConfig, type SandboxConfig } from "./config.ts";
import { buildPolicy } from "./policy.ts";
import { lstatKind, prepareLinuxJob, type WrappedJob } from "./linux.ts";
import { SCRIPTS_INSIDE, scriptsInsideShown } from "./bwrap.ts";
import { type LinuxProbe, probeBwrap } from "./linux_probe.ts";
import { type BridgeState, type NetworkSetup, networkSetup, startBridge } from "./network.ts";
import type { JobProxy } from "./proxy.ts";
import type { DomainAnswer, DomainQuestion } from "./proxy_policy.ts";
import { grantsDir, readGrants } from "./proxy_grants.ts";
import { refusalNote } from "./proxy_refusal.ts";
import { Placeholders } from "./placeholders.ts";
import type { SandboxPlan } from "./plan.ts";
import { cacheDir, createSandboxDirs, removeSandboxDirs, type SandboxDirs } from "./private_dirs.ts";
import { explainRefusal } from "./refusal.ts";
import { seccompFilter } from "./seccomp.ts";
import { describeStatus, type SandboxStatus } from "./status.ts";

export type { SandboxStatus };

/** Where the workspace is, asked before each plan (the client's roots may arrive after start). */
export interface SandboxWorkspace {
  roots(): Promise<{ roots: readonly string[]; allowDirs: readonly string[] }>;
}

/** What a sandbox is built from. */
export interface SandboxOptions {
  /** The server's environment: the settings, HOME, PATH, the socket variables. */
  env: Record<string, string | undefined>;
  workspace: SandboxWorkspace;
  /** Settings already read (tests); default: read from `env` and the user's config folder. */
  config?: SandboxConfig;
  /** Where placeholder locks go (tests); default the per-user lock folder. */
  lockDir?: string;
  /** Only tell the status (`deno task doctor`): nothing is created, the trial runs without the filter. */
  inspect?: boolean;
  /** The engine's probe (tests: an OS that cannot sandbox); default bubblewrap's on Linux. */
  probe?: () => Promise<LinuxProbe | null>;
}

/** A job's sandbox: where its long-command scripts go, how its command is wrapped, what to release. */
export interface SandboxedJob {
  /** Host folder for temp script files, seen by the job as {@link visibleScriptDir}. */
  scriptDir: string;
  visibleScriptDir: string;
  /** What to spawn and its environment (spawn with `clearEnv`): `env` is the job's whole environment. */
  wrap(invocation: ShellInvocation, env: Record<string, string>): WrappedJob;
  /** The one-line explanation of a refusal in the job's error output, if any. */
  explain(output: string): string | undefined;
  /** Call once nothing of the job runs any more. */
  release(): Promise<void>;
  /** Whether a command line (from ps) is the sandbox's own process, not one the job started. */
  isSandboxProcess(command: string): boolean;
}

/** A server's sandbox. */
export class Sandbox {
  #options: SandboxOptions;
  #config: Promise<SandboxConfig> | undefined;
  #probe: Promise<LinuxProbe | null> | undefined;
  #dirs: Promise<SandboxDirs> | undefined;
  #plans = new Map<string, Promise<SandboxPlan>>();
  #problems: string[] = [];
  #placeholders: Placeholders;
  /** The allow-list's bridge per list of domains (one in practice: the roots rarely change). */
  #bridges = new Map<string, Promise<BridgeState>>();
  #jobCount = 0;
  /** Asks the user about a domain no list allows (the client's form elicitation), when there is a way. */
  #ask: ((question: DomainQuestion) => Promise<DomainAnswer>) | undefined;
  /** The sweep of lock files killed servers left (once per server, in the background). */
  #lockSweep: Promise<unknown> | undefined;
  #closed = false;

  constructor(options: SandboxOptions) {
    this.#options = options;
    this.#placeholders = new Placeholders({ lockDir: options.lockDir });
    if (options.config) this.#config = Promise.resolve(options.config);
  }

  /** The mode in force and why; probes the OS and builds the plan the first time. */
  async status(): Promise<SandboxStatus> {
    const config = await this.#readConfig();
    if (config.mode === "off") return describeStatus({ config, problems: this.#problems });
    const probe = await this.#probeOnce();
    if (!probe?.bwrap) {
      return describeStatus({ config, problems: this.#problems, unavailable: this.#unavailable(probe) });
    }
    const plan = await this.#plan();
    return describeStatus({
      config,
      problems: this.#problems,
      engine: `bubblewrap ${probe.version?.replace(/^bubblewrap\s*/i, "") ?? ""}`.trim(),
      plan,
      network: await this.#network(plan),
      filter: seccompFilter(Deno.build.arch) !== null,
    });
  }

  /**
   * The sandbox of a job starting in `cwd`, or null when jobs run unsandboxed (mode off, or auto where the
   * OS cannot). Throws `unavailable` in require mode when the OS cannot sandbox.
   */
  async prepare(cwd: string): Promise<SandboxedJob | null> {
    const config = await this.#readConfig();
    if (config.mode === "off") return null;
    const probe = await this.#probeOnce();
    if (!probe?.bwrap) {
      if (config.mode === "auto") return null;
      throw new ToolError(
        "unavailable",
        `Cannot run the command: the sandbox is required (${config.modeSource}) but ${
          this.#unavailable(probe)
        }`,
      );
    }
    const plan = await this.#plan();
    const dirs = await this.#dirsOnce();
    const network = await this.#network(plan);
    const home = this.#options.env.HOME;
    const keep = [
      ...(network.share ? ["/etc/resolv.conf"] : []),
      ...(home && home.startsWith("/tmp/") ? [home] : []),
    ];
    // Long commands' scripts: read-only at a fixed place when /run is hidden; else in the job's /tmp.
    const scriptsShown = scriptsInsideShown(plan, lstatKind);
    // Each job its own proxy listener: its refusals are known by job, for its result's one line.
    const socat = network.bridge?.socat;
    const proxy: JobProxy | undefined = network.bridge?.proxy?.openJob(String(++this.#jobCount));
    let job;
    try {
      job = await prepareLinuxJob(plan, {
        bwrap: probe.bwrap,
        disableUserns: probe.disableUserns,
        filterPath: dirs.filter,
        shareNetwork: network.share,
        bridge: socat && proxy?.socketPath ? { socat, socketPath: proxy.socketPath } : undefined,
        cwd,
        keep: await Promise.all(keep.map((path) => Deno.realPath(path).catch(() => path))),
        placeholders: this.#placeholders,
        scripts: scriptsShown ? dirs.scripts : undefined,
      });
    } catch (error) {
      await proxy?.close();
      throw error;
    }
    const linux = job;
    return {
      // Read-only to every job: none can rewrite the script of another before its shell reads it.
      scriptDir: scriptsShown ? dirs.scripts : dirs.temp,
      visibleScriptDir: scriptsShown ? SCRIPTS_INSIDE : "/tmp",
      wrap: linux.wrap,
      explain: (output) =>
        (proxy && refusalNote(proxy.deniedHosts())) ??
          explainRefusal(output, plan, { cwd, networkNote: network.note }),
      release: async () => {
        await Promise.all([linux.release(), proxy?.close()]);
      },
      isSandboxProcess: linux.isSandboxProcess,
    };
  }

  /**
   * How to ask the user about a domain no list allows (the server's client, where it declares form
   * elicitation); none: such domains are refused without asking.
   */
  setAsker(ask: ((question: DomainQuestion) => Promise<DomainAnswer>) | undefined): void {
    this.#ask = ask;
  }

  /** Removes the temp folder and the filter file; jobs must be gone already. */
  async close(): Promise<void> {
    this.#closed = true;
    const dirs = await this.#dirs?.catch(() => undefined);
    const bridges = await Promise.all(this.#bridges.values());
    await Promise.all(bridges.map((bridge) => "proxy" in bridge ? bridge.proxy?.close() : undefined));
    if (!dirs || this.#options.inspect) return;
    await this.#lockSweep;
    await this.#placeholders.close();
    await removeSandboxDirs(dirs);
  }

  /** The plan in force for the current roots, or null when jobs run unsandboxed (for tests and doctor). */
  async plan(): Promise<SandboxPlan | null> {
    return (await this.status()).active ? await this.#plan() : null;
  }

  #readConfig(): Promise<SandboxConfig> {
    this.#config ??= readSandboxConfig(this.#options.env, userConfigDir(this.#options.env));
    return this.#config;
  }

  /** Linux only for now; the probe needs the filter file, so the private folders are made first. */
  #probeOnce(): Promise<LinuxProbe | null> {
    this.#probe ??= (async () => {
      if (this.#options.probe) return await this.#options.probe();
      if (os !== "linux") return null;
      const dirs = await this.#dirsOnce();
      const { roots, allowDirs } = await this.#options.workspace.roots();
      return await probeBwrap({ PATH: this.#options.env.PATH }, {
        filterPath: dirs.filter,
        writable: [...roots, ...allowDirs],
      });
    })();
    return this.#probe;
  }

  #unavailable(probe: LinuxProbe | null): string {
    if (probe) return probe.problem ?? "bubblewrap is not usable";
    // TODO(28): macOS through Seatbelt (lib/sandbox/seatbelt.ts) once it lands.
    return os === "windows"
      ? "Windows jobs are not sandboxed (no sandbox engine for Windows)"
      : `no sandbox engine for ${os} yet`;
  }

  /** The network setup of `plan`; the allow-list's proxy starts the first time a list is asked for. */
  async #network(plan: SandboxPlan): Promise<NetworkSetup> {
    if (plan.network.kind !== "allow") return networkSetup(plan.network);
    const { publicOnly } = plan.network;
    // Domains the user allowed "always" for these roots when asked, stored in their config folder.
    const { roots } = await this.#options.workspace.roots();
    const configDir = userConfigDir(this.#options.env);
    const granted = configDir
      ? await Promise.all(roots.map((root) => readGrants(grantsDir(configDir), root).catch(() => [])))
      : [];
    const domains = [...new Set([...plan.network.domains, ...granted.flat()])];
    const key = JSON.stringify([domains, publicOnly]);
    let bridge = this.#bridges.get(key);
    if (!bridge) {
      bridge = (async () => {
        const dirs = await this.#dirsOnce();
        const state = await startBridge(domains, {
          env: { PATH: this.#options.env.PATH },
          writable: plan.writable,
          socketDir: dirs.network,
          inspect: this.#options.inspect,
          publicOnly,
          // Read at each question: the server's client is known only once it connected.
          ask: (question) => this.#ask?.(question) ?? Promise.resolve("dismissed"),
        });
        if ("proxy" in state && state.proxy && this.#closed) await state.proxy.close();
        return state;
      })();
      this.#bridges.set(key, bridge);
    }
    return networkSetup(plan.network, await bridge);
  }

  #dirsOnce(): Promise<SandboxDirs> {
    if (this.#closed) return Promise.reject(new Error("the sandbox is closed"));
    this.#dirs ??= this.#options.inspect
      ? Promise.resolve({ parent: "", temp: "<temp folder>", scripts: "<scripts folder>" })
      : createSandboxDirs(seccompFilter(Deno.build.arch));
    return this.#dirs;
  }

  /** The plan for the current roots (built once per set of roots). */
  async #plan(): Promise<SandboxPlan> {
    const { roots, allowDirs } = await this.#options.workspace.roots();
    const key = JSON.stringify([roots, allowDirs]);
    let plan = this.#plans.get(key);
    if (!plan) {
      plan = (async () => {
        const config = await this.#readConfig();
        const dirs = await this.#dirsOnce();
        const inspect = this.#options.inspect;
        const cache = inspect ? "<cache folder>" : await cacheDir(roots, this.#options.env, dirs.parent);
        const policy = await buildPolicy({
          config,
          roots,
          allowDirs,
          env: this.#options.env,
          configDir: userConfigDir(this.#options.env),
          temp: dirs.temp,
          cache,
        });
        this.#problems = policy.problems;
        // Placeholders a killed server left in these folders go now (when no other server's job runs there).
        for (const top of inspect ? [] : policy.plan.writable) {
          await this.#placeholders.sweep(top).catch(() => {});
        }
        if (!inspect) this.#lockSweep ??= this.#placeholders.sweepLockFiles().catch(() => 0);
        return policy.plan;
      })();
      this.#plans.set(key, plan);
      plan.catch(() => this.#plans.delete(key));
    }
    return await plan;
  }
}
