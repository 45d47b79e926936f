/** Reaps what a dead shell server left behind, found by the marker every job process carries (Linux). */
import { listProcesses, readMarkers } from "../../lib/process/processes.ts";
import { killPids } from "../../lib/process/tree_kill.ts";
import { MARKER_NAME } from "./env.ts";

/** `<server pid>-<random>.<job id>`, the value of a job's marker. */
const MARKER_VALUE = /^(\d+)-[0-9a-f]+\.\d+$/;

/**
 * Kills every process whose marker names a server pid that no longer runs, and returns their pids. A dead
 * server whose pid was reused by a live process is not recognised: its orphans stay (the watchdog normally
 * killed them already).
 */
export async function reapOrphans(): Promise<number[]> {
  const marked = await readMarkers(MARKER_NAME);
  if (marked.length === 0) return [];
  const rows = await listProcesses();
  if (rows === null) return [];
  const live = new Set(rows.filter((row) => !row.zombie).map((row) => row.pid));
  const orphans = marked.filter(({ pid, value }) => {
    const server = MARKER_VALUE.exec(value)?.[1];
    return server !== undefined && !live.has(Number(server)) && live.has(pid) && pid !== Deno.pid;
  }).map(({ pid }) => pid);
  await killPids(orphans);
  return orphans;
}
