/**
 * What of a process tree the process table shows: its group and session while they are provably still its
 * own, the processes it marked, and every descendant of those. POSIX; Linux adds sessions and start times.
 * @module
 */
import { commandsOf, findMarked, listProcesses, type ProcessRow } from "./processes.ts";

/** What of a tree a process table shows. */
export interface TreeView {
  /** Its live processes: the group and session, marked processes, and every descendant of them. */
  members: ProcessRow[];
  /** Whether the group id is still the tree's, so that signalling the whole group is safe. */
  ownGroup: boolean;
}

/**
 * The tree of group `pgid` in `rows`: its group and session (while they are provably ours, see
 * `TreeKillOptions.rootRunning` in tree_kill.ts), the processes `isMember` picks (marked ones, say), and every live
 * descendant of those, which catches a child that left with its own `setsid` and dropped its marker.
 */
export function treeOf(
  rows: readonly ProcessRow[],
  options: { pgid: number; rootRunning: boolean; isMember?: (row: ProcessRow) => boolean },
): TreeView {
  const { pgid, rootRunning, isMember } = options;
  const ownGroup = rootRunning || !rows.some((row) => row.pid === pgid);
  const live = rows.filter((row) => !row.zombie && row.pid !== Deno.pid);
  const chosen = new Map<number, ProcessRow>();
  for (const row of live) {
    if ((ownGroup && (row.pgid === pgid || row.sid === pgid)) || isMember?.(row)) chosen.set(row.pid, row);
  }
  const children = new Map<number, ProcessRow[]>();
  for (const row of live) {
    const siblings = children.get(row.ppid);
    if (siblings) siblings.push(row);
    else children.set(row.ppid, [row]);
  }
  const queue = [...chosen.keys()];
  while (queue.length > 0) {
    for (const child of children.get(queue.pop()!) ?? []) {
      if (chosen.has(child.pid)) continue;
      chosen.set(child.pid, child);
      queue.push(child.pid);
    }
  }
  return { members: [...chosen.values()], ownGroup };
}

/** The tree of group `pgid` now (`commands` fills in command lines); null when there is no process table. */
export async function treeMembers(
  pgid: number,
  options: { marker?: string; commands?: boolean; rootRunning?: boolean } = {},
): Promise<ProcessRow[] | null> {
  const view = await lookAtTree(pgid, { marker: options.marker, rootRunning: options.rootRunning ?? true });
  if (!view || !options.commands) return view?.members ?? null;
  const commands = await commandsOf(view.members.map((row) => row.pid));
  return view.members.filter((row) => commands.has(row.pid)).map((row) => ({
    ...row,
    command: commands.get(row.pid),
  }));
}

/** Whether anything of the tree is still alive. */
export async function treeAlive(
  pgid: number,
  options: { marker?: string; rootRunning?: boolean } = {},
): Promise<boolean> {
  const rootRunning = options.rootRunning ?? true;
  const view = await lookAtTree(pgid, { marker: options.marker, rootRunning });
  return view ? view.members.length > 0 : rootRunning && groupExists(pgid);
}

/** The tree of group `pgid` in the current process table (marked processes found); null without a table. */
export async function lookAtTree(
  pgid: number,
  options: { marker?: string; rootRunning: boolean; isMember?: (row: ProcessRow) => boolean },
): Promise<TreeView | null> {
  const rows = await listProcesses();
  if (rows === null) return null;
  let marked = new Set<number>();
  if (options.marker) {
    const candidates = rows.filter((row) => !row.zombie && row.pid !== Deno.pid && row.pgid !== pgid);
    marked = new Set(await findMarked(candidates.map((row) => row.pid), options.marker));
  }
  const isMember = options.isMember;
  return treeOf(rows, {
    pgid,
    rootRunning: options.rootRunning,
    isMember: (row) => marked.has(row.pid) || (isMember?.(row) ?? false),
  });
}

/**
 * Whether group `pgid` has any process, zombies included: one signal, nothing spawned. SIGCONT, because Deno
 * cannot send signal 0; only for a group whose leader is surely ours (it would resume a stranger's).
 */
export function groupExists(pgid: number): boolean {
  try {
    Deno.kill(-pgid, "SIGCONT");
    return true;
  } catch {
    return false;
  }
}
