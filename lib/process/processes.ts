/**
 * The process table, read through `ps` and `grep` rather than directly from /proc: Deno refuses /proc reads
 * without --allow-all, and `ps` also works on macOS. Where `ps` is missing (slim Linux containers) one `cat` of
 * /proc/<pid>/stat stands in; on Windows there is neither and the callers fall back.
 * @module
 */
import { os } from "../platform/mod.ts";

/** One row of the process table. */
export interface ProcessRow {
  pid: number;
  pgid: number;
  /** Exited but not yet reaped: runs nothing, holds no pipe. */
  zombie: boolean;
  /** The command line (only the program name from /proc); only when asked for. */
  command?: string;
}

const decoder = new TextDecoder();

/**
 * Every process with its group and whether it is a zombie (`commands` adds each command line); null when
 * neither `ps` nor /proc is there.
 */
export async function listProcesses(options: { commands?: boolean } = {}): Promise<ProcessRow[] | null> {
  // Windows has no process groups; a `ps` or `sh` from Git for Windows would list MSYS pids, not Windows ones.
  if (os === "windows") return null;
  const columns = options.commands ? "pid=,pgid=,stat=,args=" : "pid=,pgid=,stat=";
  const out = await run("ps", ["-A", "-o", columns]);
  if (out === null) return await listFromProc(options);
  const rows: ProcessRow[] = [];
  for (const line of out.split("\n")) {
    const [pid, pgid, stat, ...args] = line.trim().split(/\s+/);
    if (!pid || !pgid) continue;
    const row: ProcessRow = { pid: Number(pid), pgid: Number(pgid), zombie: (stat ?? "").startsWith("Z") };
    if (options.commands) row.command = args.join(" ");
    rows.push(row);
  }
  return rows;
}

/** The process table from every `/proc/<pid>/stat`, read by one `cat`: Linux without procps (slim containers). */
export async function listFromProc(options: { commands?: boolean } = {}): Promise<ProcessRow[] | null> {
  const out = await run("sh", ["-c", "cat /proc/[0-9]*/stat 2>/dev/null; exit 0"]);
  if (!out) return null;
  const rows: ProcessRow[] = [];
  for (const line of out.split("\n")) {
    // `pid (comm) state ppid pgrp ...`; comm may hold spaces and parentheses, so split after the last ")".
    const close = line.lastIndexOf(")");
    if (close < 0) continue;
    const [state, , pgrp] = line.slice(close + 2).split(" ");
    const row: ProcessRow = {
      pid: Number.parseInt(line, 10),
      pgid: Number(pgrp),
      zombie: state === "Z" || state === "X",
    };
    if (options.commands) row.command = line.slice(line.indexOf("(") + 1, close);
    rows.push(row);
  }
  return rows;
}

/**
 * Pids among `pids` whose environment holds the entry `NAME=value` exactly (or, with `prefix`, an entry
 * starting with it). Linux only (`/proc/<pid>/environ`, readable for our own processes); [] elsewhere.
 */
export async function findMarked(pids: readonly number[], entry: string, prefix = false): Promise<number[]> {
  // Only Linux has /proc/<pid>/environ: elsewhere save the grep per call (kill polls call this often).
  if (pids.length === 0 || os === "windows" || os === "darwin") return [];
  const files = pids.map((pid) => `/proc/${pid}/environ`);
  // -z: NUL-separated entries; -x/-F: whole entry, literally; -l: names of matching files; -s: no noise.
  const pattern = prefix ? ["-lsz", "-e", `^${escapeRegExp(entry)}`] : ["-lsxzF", entry];
  const out = await run("grep", [...pattern, "--", ...files]);
  if (out === null) return [];
  return [...out.matchAll(/\/proc\/(\d+)\/environ/g)].map((match) => Number(match[1]));
}

/**
 * Every process of ours whose environment holds a `name=...` entry, with that entry's value (Linux only,
 * through /proc/<pid>/environ; [] elsewhere).
 */
export async function readMarkers(name: string): Promise<{ pid: number; value: string }[]> {
  if (os !== "linux") return [];
  // -H: file name before each hit; -a: environ files are "binary"; -z: NUL-separated entries; -F: literally
  // (the entry's start is checked below).
  const out = await run("sh", ["-c", `exec grep -HaszF -e "$0=" /proc/[0-9]*/environ`, name]);
  if (!out) return [];
  const found: { pid: number; value: string }[] = [];
  for (const entry of out.split("\0")) {
    const match = /^\/proc\/(\d+)\/environ:([^=]*)=(.*)$/s.exec(entry);
    if (match && match[2] === name) found.push({ pid: Number(match[1]), value: match[3] });
  }
  return found;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

async function run(program: string, args: string[]): Promise<string | null> {
  try {
    const output = await new Deno.Command(program, { args, stdin: "null", stdout: "piped", stderr: "null" })
      .output();
    return decoder.decode(output.stdout);
  } catch {
    return null;
  }
}
