/**
 * Kills a whole process tree. POSIX: the tree is a process group (spawned with `detached: true`), signalled
 * politely, then with SIGKILL after a grace; on Linux, processes that left the group with their own
 * `setsid` are still found through a marker entry in their environment. Windows: the tree's Job Object when
 * it has one, and `taskkill /T /F` by pid, but only while that pid is surely still ours.
 * @module
 */
import { type OwnedTree, processRules } from "../platform/mod.ts";
import { findMarked, listProcesses, type ProcessRow } from "./processes.ts";

/** How a tree is identified and killed. */
export interface TreeKillOptions {
  /** `NAME=value` set in the environment of every process of the tree (Linux escapee search). */
  marker?: string;
  /** First signal; SIGKILL follows after `graceMs` if anything survives. Default SIGTERM. */
  signal?: Deno.Signal;
  /** Default 2000. */
  graceMs?: number;
  /** Windows: the Job Object holding the tree (from `ownProcessTree`). */
  owned?: OwnedTree | null;
  /**
   * Windows without a Job Object: whether the root has not been reaped yet (its status not yet seen), so
   * that its pid cannot name another process; when false, nothing is killed by pid. Default true.
   */
  rootRunning?: boolean;
}

const POLL_MS = 50;
const KILL_WAIT_MS = 1000;

/** Live (not zombie) pids of group `pgid` plus those carrying `marker`; null when `ps` is unavailable. */
export async function findTreeMembers(pgid: number, marker?: string): Promise<number[] | null> {
  return (await treeMembers(pgid, { marker }))?.map((row) => row.pid) ?? null;
}

/** Like {@link findTreeMembers}, as process rows (`commands` fills in their command lines). */
export async function treeMembers(
  pgid: number,
  options: { marker?: string; commands?: boolean } = {},
): Promise<ProcessRow[] | null> {
  const rows = await listProcesses({ commands: options.commands });
  if (rows === null) return null;
  const live = rows.filter((row) => !row.zombie && row.pid !== Deno.pid);
  const members = live.filter((row) => row.pgid === pgid);
  if (!options.marker) return members;
  const others = live.filter((row) => row.pgid !== pgid);
  const marked = new Set(await findMarked(others.map((row) => row.pid), options.marker));
  return [...members, ...others.filter((row) => marked.has(row.pid))];
}

/** Whether anything of the tree is still alive. */
export async function treeAlive(pgid: number, marker?: string): Promise<boolean> {
  const members = await findTreeMembers(pgid, marker);
  return members ? members.length > 0 : groupExists(pgid);
}

/**
 * Whether group `pgid` has any process, zombies included: one signal, nothing spawned (POSIX; false on
 * Windows). SIGCONT, because Deno cannot send signal 0 and it is harmless to a running process.
 */
export function groupExists(pgid: number): boolean {
  try {
    Deno.kill(-pgid, "SIGCONT");
    return true;
  } catch {
    return false;
  }
}

/** Kills the tree rooted at `pid` and resolves once it is gone (or SIGKILL was sent to what remained). */
export async function killTree(pid: number, options: TreeKillOptions = {}): Promise<void> {
  const taskkill = processRules.treeKillArgv(pid);
  if (taskkill) return await killWindowsTree(pid, taskkill, options);
  const members = await findTreeMembers(pid, options.marker);
  // Nothing left: do not signal a group id that may since belong to someone else.
  if (members !== null && members.length === 0) return;
  const signal = options.signal ?? processRules.gentleSignal;
  signalAll(pid, members ?? [], signal);
  if (signal !== "SIGKILL" && await waitGone(pid, options.marker, options.graceMs ?? 2000)) return;
  signalAll(pid, await findTreeMembers(pid, options.marker) ?? [], "SIGKILL");
  // SIGKILL is delivered asynchronously: wait (briefly) until the kernel has really ended them.
  await waitGone(pid, options.marker, KILL_WAIT_MS);
}

/** Sends SIGKILL to every process whose environment has an entry starting with `prefix` (Linux). */
export async function killMarked(prefix: string): Promise<void> {
  const rows = await listProcesses();
  if (rows === null) return;
  const live = rows.filter((row) => !row.zombie && row.pid !== Deno.pid).map((row) => row.pid);
  for (const pid of await findMarked(live, prefix, true)) signal(pid, "SIGKILL");
}

/** Signals each of `pids` politely, then SIGKILLs those still alive after `graceMs` (default 1000). */
export async function killPids(pids: readonly number[], graceMs = 1000): Promise<void> {
  if (pids.length === 0) return;
  for (const pid of pids) signal(pid, processRules.gentleSignal);
  const alive = async () => {
    const rows = await listProcesses();
    const live = new Set(rows?.filter((row) => !row.zombie).map((row) => row.pid));
    return rows === null ? [...pids] : pids.filter((pid) => live.has(pid));
  };
  const deadline = performance.now() + graceMs;
  let left = await alive();
  while (left.length > 0 && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    left = await alive();
  }
  for (const pid of left) signal(pid, "SIGKILL");
}

/**
 * Windows: `taskkill /T` first, while `pid` is surely ours (it also reaches what the root started before it
 * joined its Job Object), then the Job Object, which also ends orphans whose parent already exited. Exported
 * with `taskkill` as a parameter so that this order is tested on every OS.
 */
export async function killWindowsTree(
  pid: number,
  taskkill: string[],
  options: TreeKillOptions,
): Promise<void> {
  const owned = options.owned;
  // A handle held on a member of our Job Object keeps its pid from naming anything else during taskkill;
  // without a Job Object, a pid whose process was not yet reaped is still ours.
  const release = owned?.holdMember(pid);
  if (owned ? release : options.rootRunning ?? true) {
    const [program, ...args] = taskkill;
    await new Deno.Command(program, { args, stdout: "null", stderr: "null" }).output().catch(() => {});
  }
  release?.();
  if (!owned) return;
  owned.terminate();
  // TerminateJobObject returns before the processes are gone: wait (briefly) until the job is empty.
  const deadline = performance.now() + KILL_WAIT_MS;
  while (owned.alive() && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Polls until the tree is gone; false if it still lives after `timeoutMs`. */
async function waitGone(pgid: number, marker: string | undefined, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (await treeAlive(pgid, marker)) {
    if (performance.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return true;
}

function signalAll(pgid: number, pids: readonly number[], sig: Deno.Signal): void {
  signal(-pgid, sig);
  for (const pid of pids) signal(pid, sig);
}

function signal(pid: number, sig: Deno.Signal): void {
  try {
    Deno.kill(pid, sig);
  } catch {
    // Already gone.
  }
}
