/**
 * A {@link SandboxPlan} as a bubblewrap command line: pure functions, tested without running anything. The
 * facts they need about the disk (what exists, folder or file) are passed in, looked up by the engine
 * (linux.ts) just before the job starts.
 *
 * The job gets: its own user (no capabilities, not even as root; no further user namespaces), PID (it sees
 * and signals only its own processes; killing bwrap's init ends them all), IPC and, unless the network is
 * `on`, network namespace; a fresh /proc and /dev; `/` read-only, then in order: socket folders shown empty,
 * the private temp folder as /tmp, the cache, the writable folders, the folders leading to protected names
 * pinned (bound onto themselves: a mount point cannot be renamed away and replaced), the protected names
 * read-only, and the denied paths unreadable.
 * @module
 */
import { dirname } from "node:path";
import { platform } from "../platform/mod.ts";
import type { SandboxPlan } from "./plan.ts";
import { placeholderFile } from "./placeholders.ts";

/**
 * What a path is on disk (not following a last symlink; plan paths are real). `empty` is an empty folder, told
 * apart only on the way to protected names: it may be a placeholder (another job's, soon removed), and an
 * empty `.git` would become a repository the job made, so it is protected whole, like a missing one.
 */
export type PathKind = "dir" | "empty" | "file" | "missing";

/** How the disk looks: a lookup the engine fills with lstat. */
export type Facts = (path: string) => PathKind;

/** What the command line needs beyond the plan. */
export interface BwrapOptions {
  /** The job's working folder (real path, inside the workspace). */
  cwd: string;
  /** Keep the host's network namespace (`on`). */
  shareNetwork: boolean;
  /** The fd the seccomp filter is read from, when there is one. */
  seccompFd?: number;
  /** bubblewrap ≥ 0.8 can forbid further user namespaces inside. */
  disableUserns: boolean;
  /** Files or folders shown read-only even though they lie in a hidden folder or under /tmp (resolv.conf). */
  keep?: readonly string[];
  /** The server's script folder, shown read-only at {@link SCRIPTS_INSIDE} (when /run is hidden). */
  scripts?: string;
  /** The job's own variables that must not reach the launchers (launcher_env.ts); the plan's win. */
  jobEnv?: readonly (readonly [string, string])[];
  /** Variables the job has not (PATH of the launchers when the job has none). */
  unsetJobEnv?: readonly string[];
  /** The network's own arguments and command prefix (network.ts: the allow-list proxy's bridge). */
  network?: { bwrapArgs?: readonly string[]; commandPrefix?: readonly string[] };
}

/** The protected paths to mount read-only, and the missing ones among them that need a placeholder folder. */
export interface ProtectedMounts {
  mounts: string[];
  placeholders: string[];
}

/**
 * For each protected path: itself when it exists, else the first missing or empty folder on its way (a
 * placeholder there covers it); nothing when a file stands on its way (nothing can be created below a
 * file). Mounts inside another mount are dropped.
 */
export function protectedMounts(plan: SandboxPlan, facts: Facts): ProtectedMounts {
  // The engine asks twice per job with the same facts (placeholders, then the command line): once is enough.
  const known = computed.get(facts);
  if (known?.plan === plan) return known.result;
  const result = computeProtectedMounts(plan, facts);
  computed.set(facts, { plan, result });
  return result;
}

/** The last result per facts lookup (one per job). */
const computed = new WeakMap<Facts, { plan: SandboxPlan; result: ProtectedMounts }>();

function computeProtectedMounts(plan: SandboxPlan, facts: Facts): ProtectedMounts {
  const chosen = new Set<string>();
  const placeholders = new Set<string>();
  for (const path of plan.protectedPaths) {
    const top = topOf(plan, path);
    if (top === undefined) continue;
    const steps = stepsBelow(top, path);
    let target: string | undefined;
    for (const [index, step] of steps.entries()) {
      const kind = facts(step);
      if (kind === "missing" || kind === "empty") {
        target = step;
        placeholders.add(step);
        break;
      }
      if (index === steps.length - 1) target = step;
      else if (kind === "file") break;
    }
    if (target) chosen.add(target);
  }
  // Plan paths are absolute and normalized: one lies inside another exactly when that one is among its
  // ancestors (a set lookup per step, not a path.relative per pair: a workspace has a hundred or more).
  const sorted = [...chosen].sort(byDepth);
  const mounts = sorted.filter((path) => {
    for (let step = dirname(path); step !== dirname(step); step = dirname(step)) {
      if (chosen.has(step)) return false;
    }
    return !chosen.has("/") || path === "/";
  });
  return { mounts, placeholders: [...placeholders].filter((path) => mounts.includes(path)) };
}

/** Folders strictly between a writable top and each mount: bound onto themselves so none is renamed away. */
export function pinnedFolders(plan: SandboxPlan, mounts: readonly string[], facts: Facts): string[] {
  const pinned = new Set<string>();
  for (const mount of mounts) {
    const top = topOf(plan, mount);
    if (top === undefined) continue;
    for (const step of stepsBelow(top, mount).slice(0, -1)) if (facts(step) === "dir") pinned.add(step);
  }
  return [...pinned].sort(byDepth);
}

/** Where a job sees the server's script folder (long commands' scripts). */
export const SCRIPTS_INSIDE = "/run/shell-mcp-scripts";

/** Whether {@link SCRIPTS_INSIDE} can be shown: /run is replaced by a fresh tmpfs. */
export function scriptsInsideShown(plan: SandboxPlan, facts: Facts): boolean {
  return (plan.hidden ?? []).includes("/run") && isFolder(facts("/run"));
}

/** Kernel knobs under /proc a job must never write, shown read-only (those a kernel lacks are skipped). */
const PROC_READ_ONLY = [
  "/proc/sys",
  "/proc/sysrq-trigger",
  "/proc/irq",
  "/proc/bus",
  "/proc/fs",
  "/proc/acpi",
];

/** The bwrap arguments (without the program name) that run `command` under `plan`. */
export function bwrapArgs(
  plan: SandboxPlan,
  facts: Facts,
  options: BwrapOptions,
  command: readonly string[],
): string[] {
  const args = ["--unshare-user"];
  if (options.disableUserns) args.push("--disable-userns");
  args.push("--unshare-pid", "--unshare-ipc");
  if (!options.shareNetwork) args.push("--unshare-net");
  // New session: no TIOCSTI into a terminal of ours. No capabilities even for a root job: with them it
  // could remount / read-write (seen: it can, without --cap-drop).
  args.push("--new-session", "--cap-drop", "ALL");
  args.push("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc");
  // The kernel checks sysctl writes by uid, not capability: a job of a root server is global uid 0 in its
  // user namespace, and bwrap skips covering these when its own access() check says no. Seen: a job wrote
  // /proc/sys/kernel/core_pattern and the kernel ran its script as root outside every namespace.
  for (const path of PROC_READ_ONLY) args.push("--ro-bind-try", path, path);
  for (const folder of plan.hidden ?? []) if (isFolder(facts(folder))) args.push("--tmpfs", folder);
  // On the fresh tmpfs of /run: no job can leave a symlink on the way to it, nor write in it.
  if (options.scripts && scriptsInsideShown(plan, facts)) {
    args.push("--ro-bind", options.scripts, SCRIPTS_INSIDE);
  }
  args.push("--bind", plan.temp, "/tmp");
  for (const path of options.keep ?? []) if (facts(path) !== "missing") args.push("--ro-bind", path, path);
  for (const dir of [plan.cache, ...[...plan.writable].sort(byDepth)]) {
    if (isFolder(facts(dir))) args.push("--bind", dir, dir);
  }
  const { mounts } = protectedMounts(plan, facts);
  for (const dir of pinnedFolders(plan, mounts, facts)) args.push("--bind", dir, dir);
  for (const path of mounts) {
    // A placeholder folder gets an empty read-only-mode tmpfs: as good as a read-only bind (what the job
    // writes there after a chmod lands in memory, never on the disk) at a fraction of a bind's cost.
    const kind = facts(path);
    const placeholder = (kind === "missing" || kind === "empty") && placeholderFile(path) === undefined;
    args.push(...(placeholder ? ["--perms", "0555", "--tmpfs", path] : ["--ro-bind", path, path]));
  }
  for (const path of plan.denyRead) {
    const kind = facts(path);
    // Unreadable, not just empty: `cat ~/.ssh/id_ed25519` says "Permission denied". A tmpfs, not the disk:
    // whatever the job puts there is its own and goes with it.
    if (isFolder(kind)) args.push("--perms", "0000", "--tmpfs", path);
    else if (kind === "file") args.push("--ro-bind", "/dev/null", path);
  }
  for (const [name, value] of options.jobEnv ?? []) args.push("--setenv", name, value);
  for (const name of options.unsetJobEnv ?? []) args.push("--unsetenv", name);
  for (const [name, value] of Object.entries(plan.env ?? {})) {
    args.push("--setenv", name, name === "TMPDIR" ? "/tmp" : value);
  }
  for (const name of plan.unsetEnv ?? []) args.push("--unsetenv", name);
  args.push(...options.network?.bwrapArgs ?? []);
  args.push("--chdir", options.cwd);
  if (options.seccompFd !== undefined) args.push("--seccomp", String(options.seccompFd));
  args.push("--", ...options.network?.commandPrefix ?? [], ...command);
  return args;
}

/** The writable folder `path` lies in (the deepest one), or undefined. */
export function topOf(plan: SandboxPlan, path: string): string | undefined {
  return [...plan.writable].sort(byDepth).reverse().find((dir) =>
    platform.isInside(path, dir) && dir !== path
  );
}

/** `/w`, `/w/a/b/c` → `/w/a`, `/w/a/b`, `/w/a/b/c`. */
function stepsBelow(top: string, path: string): string[] {
  const steps: string[] = [];
  for (let step = path; step !== top && step !== dirname(step); step = dirname(step)) steps.unshift(step);
  return steps;
}

function isFolder(kind: PathKind): boolean {
  return kind === "dir" || kind === "empty";
}

function byDepth(a: string, b: string): number {
  return a.split("/").length - b.split("/").length || (a < b ? -1 : a > b ? 1 : 0);
}
