/**
 * Reaps what a dead shell server left behind, found by the marker every job process carries (Linux). A
 * server is judged dead only where its pid means something: in our PID namespace. A server in a container
 * (another PID namespace on the same kernel) names itself by a pid that is free here, or someone else's.
 * @module
 */
import {
  listProcesses,
  pidNamespaces,
  processIdentity,
  type ProcessRow,
  readMarkers,
} from "../../lib/process/processes.ts";
import { killPids } from "../../lib/process/tree_kill.ts";
import { MARKER_NAME } from "./env.ts";

/**
 * A marker's value: `<server pid>-<random>[-<pid namespace>-<server start time>].<job id>`; servers before
 * the namespace was added wrote the short form.
 */
const MARKER_VALUE = /^(\d+)-[0-9a-f]+(?:-(\d+)-(\d+))?\.\d+$/;

/**
 * Kills every process whose marker names a server that provably no longer runs, and returns their pids:
 * the marker names our PID namespace and no process has the server's pid and start time. A short marker
 * (an older server) counts only when the marked process itself is in our namespace, and then a dead
 * server whose pid was reused by a live process is not recognised (the watchdog normally killed its jobs).
 */
export async function reapOrphans(): Promise<number[]> {
  const marked = await readMarkers(MARKER_NAME);
  if (marked.length === 0) return [];
  const [rows, self] = await Promise.all([listProcesses(), processIdentity()]);
  if (rows === null || self === null) return [];
  const live = new Map<number, ProcessRow>(rows.filter((row) => !row.zombie).map((row) => [row.pid, row]));
  const candidates: { pid: number; server: number; start?: number; space?: string }[] = [];
  for (const { pid, value } of marked) {
    const match = MARKER_VALUE.exec(value);
    if (!match || !live.has(pid) || pid === Deno.pid) continue;
    const [, server, space, start] = match;
    candidates.push({
      pid,
      server: Number(server),
      space,
      start: start === undefined ? undefined : Number(start),
    });
  }
  const unnamed = candidates.filter((candidate) => candidate.space === undefined).map((candidate) =>
    candidate.pid
  );
  const spaces = await pidNamespaces(unnamed);
  const orphans = candidates.filter(({ pid, server, space, start }) => {
    if ((space ?? spaces.get(pid)) !== self.pidNamespace) return false;
    const running = live.get(server);
    return running === undefined || (start !== undefined && running.start !== start);
  }).map(({ pid }) => pid);
  const starts = new Map(orphans.flatMap((pid) => {
    const start = live.get(pid)?.start;
    return start === undefined ? [] : [[pid, start] as const];
  }));
  await killPids(orphans, undefined, starts);
  return orphans;
}
