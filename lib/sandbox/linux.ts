/**
 * The Linux engine: bubblewrap (probed by linux_probe.ts). Wraps each job: looks at the disk, holds the
 * placeholders for missing protected names, and builds the command line (bwrap.ts).
 * @module
 */
import { platform } from "../platform/mod.ts";
import type { ShellInvocation } from "../platform/posix.ts";
import { splitLauncherEnv } from "./launcher_env.ts";
import { bwrapArgs, type BwrapOptions, type Facts, type PathKind, protectedMounts, topOf } from "./bwrap.ts";
import {
  BRIDGE_SYNC_FD,
  bridgedArgs,
  bridgeEnvArgs,
  isBridgeProcess,
  type JobBridge,
} from "./bwrap_bridge.ts";
import type { SandboxPlan } from "./plan.ts";
import { placeholderFile, type Placeholders } from "./placeholders.ts";

/** The job's parent: opens the seccomp filter on fd 3 for bwrap, then runs it and exits with its status. */
const WITH_FILTER = 'exec 3<"$1" || exit 126\nshift\n"$@"\nexit $?';
const WITHOUT_FILTER = '"$@"\nexit $?';

/** One job's sandbox on Linux, once its placeholders are held. */
export interface LinuxJob {
  /**
   * The full invocation, `/bin/sh` → bwrap → the shell, and the environment to start it with: the job's
   * `env` minus what would steer the launchers, which bwrap sets inside (launcher_env.ts).
   */
  wrap(invocation: ShellInvocation, env: Record<string, string>): WrappedJob;
  /** Lets the placeholders go; call once nothing of the job runs any more. */
  release(): Promise<void>;
  /** Whether a command line (from ps) is bubblewrap's own process, not one the job started. */
  isSandboxProcess(command: string): boolean;
}

/** A wrapped job: what to spawn, with which environment (spawn it with `clearEnv`). */
export interface WrappedJob {
  invocation: ShellInvocation;
  env: Record<string, string>;
}

/** What a job's sandbox is built from. */
export interface LinuxJobOptions {
  bwrap: string;
  disableUserns: boolean;
  /** The seccomp filter's file (in a folder no job sees), or undefined on CPUs without one. */
  filterPath?: string;
  shareNetwork: boolean;
  /** The allow-list's bridge (bwrap_bridge.ts): the job runs in a sandbox nested in socat's. */
  bridge?: JobBridge;
  cwd: string;
  /** Paths shown read-only though they lie in hidden folders or /tmp (resolv.conf, a home under /tmp). */
  keep: readonly string[];
  placeholders: Placeholders;
  /** The server's script folder (shown read-only to the job), when /run can carry it. */
  scripts?: string;
}

/** Prepares one job: looks at the disk, holds the placeholders it needs. */
export async function prepareLinuxJob(plan: SandboxPlan, options: LinuxJobOptions): Promise<LinuxJob> {
  const facts = lookAt(plan, options.keep);
  const lookup: Facts = (path) => facts.get(path) ?? lstatKind(path);
  // Missing names get a placeholder; an empty folder, or a file holding what a placeholder file holds, may
  // be one already (ours or another server's), so it is held too: then no server removes it while this
  // job's mount sits on it.
  const { mounts, placeholders } = protectedMounts(plan, lookup);
  const needed = [
    ...placeholders,
    ...mounts.filter((path) => !placeholders.includes(path) && isPlaceholderFile(path)),
  ];
  // The command line is built from the disk as it was before the placeholders were made: a placeholder
  // folder must not turn names below it into further placeholders nobody holds.
  const releases: (() => Promise<void>)[] = [];
  try {
    for (const [top, paths] of groupByTop(plan, needed)) {
      releases.push(await options.placeholders.hold(top, paths));
    }
  } catch (error) {
    await Promise.all(releases.map((release) => release()));
    throw error;
  }
  const release = async () => {
    await Promise.all(releases.map((each) => each()));
  };
  const bwrapOptions: BwrapOptions = {
    cwd: options.cwd,
    shareNetwork: options.shareNetwork,
    seccompFd: options.filterPath ? 3 : undefined,
    disableUserns: options.disableUserns,
    keep: options.keep,
    scripts: options.scripts,
  };
  const { bridge } = options;
  const args = (command: string[], jobEnv: [string, string][]) => {
    const withEnv: BwrapOptions = {
      ...bwrapOptions,
      jobEnv,
      unsetJobEnv: jobEnv.some(([name]) => name === "PATH") ? [] : ["PATH"],
    };
    if (!bridge) return bwrapArgs(plan, lookup, withEnv, command);
    // The inner sandbox shares the outer one's network namespace, where the bridge listens.
    const inner = bwrapArgs(plan, lookup, {
      ...withEnv,
      shareNetwork: true,
      network: {
        bwrapArgs: [...bridgeEnvArgs(), "--sync-fd", String(BRIDGE_SYNC_FD)],
      },
    }, command);
    return bridgedArgs(options.bwrap, inner, bridge);
  };
  return {
    wrap: (invocation, env) => {
      const { launcher, inside } = splitLauncherEnv(env);
      const command = [invocation.program, ...invocation.args];
      return {
        invocation: wrapInvocation(options.bwrap, options.filterPath, args(command, inside)),
        env: launcher,
      };
    },
    release,
    isSandboxProcess: (command) =>
      command.startsWith(`${options.bwrap} `) || (!!bridge && isBridgeProcess(command, bridge)),
  };
}

/** `/bin/sh` running bwrap with `args`, fd 3 opened on the filter first when there is one. */
export function wrapInvocation(
  bwrap: string,
  filterPath: string | undefined,
  args: string[],
): ShellInvocation {
  return filterPath
    ? { program: "/bin/sh", args: ["-c", WITH_FILTER, "shell-mcp-job", filterPath, bwrap, ...args] }
    : { program: "/bin/sh", args: ["-c", WITHOUT_FILTER, "shell-mcp-job", bwrap, ...args] };
}

/** lstat of every path the command line depends on (sync: a few dozen calls, cheaper than async ops). */
function lookAt(plan: SandboxPlan, keep: readonly string[]): Map<string, PathKind> {
  const facts = new Map<string, PathKind>();
  const paths = [...(plan.hidden ?? []), ...keep, plan.cache, ...plan.writable, ...plan.denyRead];
  for (const path of paths) if (!facts.has(path)) facts.set(path, lstatKind(path));
  // On the way to protected names, empty folders are told apart (see PathKind).
  for (const path of plan.protectedPaths) {
    for (let step = path; step !== platform.path.dirname(step); step = platform.path.dirname(step)) {
      if (plan.writable.includes(step)) break;
      if (facts.has(step)) continue;
      const kind = lstatKind(step);
      facts.set(step, kind === "dir" && isEmptyFolder(step) ? "empty" : kind);
    }
  }
  return facts;
}

/** Placeholders by the writable folder they lie in: each folder has its own locks. */
function groupByTop(plan: SandboxPlan, paths: readonly string[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const path of paths) {
    const top = topOf(plan, path)!;
    groups.set(top, [...groups.get(top) ?? [], path]);
  }
  return groups;
}

/** A file holding what a placeholder file holds (`.git/commondir` reading `.`, an empty `.git/config`). */
function isPlaceholderFile(path: string): boolean {
  const content = placeholderFile(path);
  try {
    return content !== undefined && Deno.readTextFileSync(path) === content;
  } catch {
    return false;
  }
}

function isEmptyFolder(path: string): boolean {
  try {
    return Deno.readDirSync(path)[Symbol.iterator]().next().done === true;
  } catch {
    return false;
  }
}

export function lstatKind(path: string): PathKind {
  try {
    const info = Deno.lstatSync(path);
    return info.isDirectory ? "dir" : "file";
  } catch {
    return "missing";
  }
}
