/**
 * Kills a whole process tree. POSIX: the tree is a process group (spawned with `detached: true`) and its
 * session, signalled politely, then with SIGKILL after a grace, plus every descendant of them and, on Linux,
 * every process carrying a marker entry in its environment: a child that left with its own `setsid` is still
 * a descendant, or marked. A group is signalled only while it is provably still ours (pids get reused).
 * Windows: the tree's Job Object when it has one, and `taskkill /T /F` by pid, but only while that pid is
 * surely still ours.
 * @module
 */
import { type OwnedTree, processRules } from "../platform/mod.ts";
import { findMarked, listProcesses, type ProcessRow } from "./processes.ts";
import { groupExists, lookAtTree, type TreeView } from "./tree_view.ts";

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
   * Whether the root has not been reaped yet (its status not yet seen), so that its pid, and the group and
   * session it leads, cannot name anything else. Once it was reaped, POSIX still signals the group while a
   * process of it lives and no process holds its number as a pid (a live group keeps its id from being
   * reused; a process with that pid means the number was reused, by a group that is not ours); Windows then
   * kills nothing by pid. Default true.
   */
  rootRunning?: boolean;
}

const POLL_MS = 50;
const KILL_WAIT_MS = 1000;

/** Kills the tree rooted at `pid` and resolves once it is gone (or SIGKILL was sent to what remained). */
export async function killTree(pid: number, options: TreeKillOptions = {}): Promise<void> {
  const taskkill = processRules.treeKillArgv(pid);
  if (taskkill) return await killWindowsTree(pid, taskkill, options);
  const rootRunning = options.rootRunning ?? true;
  // Signalled once, still ours: one whose parent died of the first signal is no descendant of anything now.
  const signalled = new Map<number, number | undefined>();
  const isMember = (row: ProcessRow) => signalled.has(row.pid) && signalled.get(row.pid) === row.start;
  const look = () => lookAtTree(pid, { marker: options.marker, rootRunning, isMember });
  const hit = (view: TreeView | null, sig: Deno.Signal) => {
    // No table: the group can be trusted only while its leader is surely ours.
    if (view ? view.ownGroup : rootRunning) signal(-pid, sig);
    for (const row of view?.members ?? []) {
      signalled.set(row.pid, row.start);
      signal(row.pid, sig);
    }
  };
  const gone = async (timeoutMs: number) => {
    const deadline = performance.now() + timeoutMs;
    while (true) {
      const view = await look();
      if (view ? view.members.length === 0 : !(rootRunning && groupExists(pid))) return true;
      if (performance.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  };
  const first = await look();
  // Nothing left: do not signal a group id that may since belong to someone else.
  if (first !== null && first.members.length === 0) return;
  const sig = options.signal ?? processRules.gentleSignal;
  hit(first, sig);
  if (sig !== "SIGKILL" && await gone(options.graceMs ?? 2000)) return;
  hit(await look(), "SIGKILL");
  // SIGKILL is delivered asynchronously: wait (briefly) until the kernel has really ended them.
  await gone(KILL_WAIT_MS);
}

/** Sends SIGKILL to every process whose environment has an entry starting with `prefix` (Linux). */
export async function killMarked(prefix: string): Promise<void> {
  const rows = await listProcesses();
  if (rows === null) return;
  const live = rows.filter((row) => !row.zombie && row.pid !== Deno.pid).map((row) => row.pid);
  for (const pid of await findMarked(live, prefix, true)) signal(pid, "SIGKILL");
}

/**
 * Signals every process of ours (real and effective uid: processes.ts `findMarked`) whose environment holds
 * the entry `NAME=value` exactly, politely, then with SIGKILL those alive after `graceMs` (Linux; a no-op
 * elsewhere). What a child started in a session of its own, then left behind, is found this way. Returns
 * the pids it signalled.
 */
export async function killMarkedGently(entry: string, graceMs = 1000): Promise<number[]> {
  const rows = await listProcesses();
  if (rows === null) return [];
  const live = rows.filter((row) => !row.zombie && row.pid !== Deno.pid);
  const marked = await findMarked(live.map((row) => row.pid), entry);
  const starts = new Map<number, number>();
  for (const row of live) {
    if (row.start !== undefined && marked.includes(row.pid)) starts.set(row.pid, row.start);
  }
  await killPids(marked, graceMs, starts);
  return marked;
}

/** Signals each of `pids` politely, then SIGKILLs those still alive after `graceMs` (default 1000). */
export async function killPids(
  pids: readonly number[],
  graceMs = 1000,
  starts: ReadonlyMap<number, number> = new Map(),
): Promise<void> {
  if (pids.length === 0) return;
  for (const pid of pids) signal(pid, processRules.gentleSignal);
  // A pid whose process ended may name another process by the SIGKILL: with its start time known, only the
  // process that was signalled first is killed.
  const alive = async () => {
    const rows = await listProcesses();
    if (rows === null) return starts.size ? [] : [...pids];
    const live = new Map(rows.filter((row) => !row.zombie).map((row) => [row.pid, row]));
    return pids.filter((pid) => {
      const row = live.get(pid);
      return row !== undefined && (!starts.has(pid) || row.start === starts.get(pid));
    });
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

function signal(pid: number, sig: Deno.Signal): void {
  try {
    Deno.kill(pid, sig);
  } catch {
    // Already gone.
  }
}
