/**
 * The process table, read through `cat`, `ps` and `grep` rather than directly from /proc: Deno refuses /proc
 * reads without --allow-all. Linux reads every /proc/<pid>/stat with one `cat` (no procps needed, and it has
 * sessions and start times); macOS asks `ps`; on Windows there is neither and the callers fall back.
 * @module
 */
import { os } from "../platform/mod.ts";
import { parseProcStat } from "../platform/linux_process.ts";

/** One row of the process table. */
export interface ProcessRow {
  pid: number;
  /** The parent's pid (0 when the table did not say). */
  ppid: number;
  pgid: number;
  /** Session id (Linux /proc only). */
  sid?: number;
  /** Start time in clock ticks after boot (Linux /proc only): with the pid, it names one process. */
  start?: number;
  /** Exited but not yet reaped: runs nothing, holds no pipe. */
  zombie: boolean;
  /** The command line (only the program name from /proc); only when asked for. */
  command?: string;
}

const decoder = new TextDecoder();

/**
 * Every process with its parent, group and whether it is a zombie (`commands` adds each command line);
 * null when neither `ps` nor /proc is there. Linux reads /proc (which also gives sessions and start times)
 * unless command lines are asked for.
 */
export async function listProcesses(options: { commands?: boolean } = {}): Promise<ProcessRow[] | null> {
  // Windows has no process groups; a `ps` or `sh` from Git for Windows would list MSYS pids, not Windows ones.
  if (os === "windows") return null;
  if (os === "linux" && !options.commands) {
    const rows = await listFromProc();
    if (rows) return rows;
  }
  const columns = options.commands ? "pid=,ppid=,pgid=,stat=,args=" : "pid=,ppid=,pgid=,stat=";
  const out = await run("ps", ["-A", "-o", columns]);
  if (out === null) return await listFromProc(options);
  const rows: ProcessRow[] = [];
  for (const line of out.split("\n")) {
    const [pid, ppid, pgid, stat, ...args] = line.trim().split(/\s+/);
    if (!pid || !pgid) continue;
    const row: ProcessRow = {
      pid: Number(pid),
      ppid: Number(ppid),
      pgid: Number(pgid),
      zombie: (stat ?? "").startsWith("Z"),
    };
    if (options.commands) row.command = args.join(" ");
    rows.push(row);
  }
  return rows;
}

/** The process table from every `/proc/<pid>/stat`, read by one `cat` (Linux; procps not needed). */
export async function listFromProc(options: { commands?: boolean } = {}): Promise<ProcessRow[] | null> {
  if (os !== "linux") return null;
  const out = await run("sh", ["-c", "cat /proc/[0-9]*/stat 2>/dev/null; exit 0"]);
  if (!out) return null;
  const rows: ProcessRow[] = [];
  for (const line of out.split("\n")) {
    const stat = parseProcStat(line);
    if (!stat) continue;
    const { pid, ppid, pgid, sid, start } = stat;
    const row: ProcessRow = { pid, ppid, pgid, sid, start, zombie: stat.state === "Z" || stat.state === "X" };
    if (options.commands) row.command = stat.comm;
    rows.push(row);
  }
  return rows;
}

/** The command lines of `pids` (from `ps`; where it is missing, the program names from /proc). */
export async function commandsOf(pids: readonly number[]): Promise<Map<number, string>> {
  const commands = new Map<number, string>();
  if (pids.length === 0 || os === "windows") return commands;
  const out = await run("ps", ["-o", "pid=,args=", "-p", pids.join(",")]);
  if (out === null) {
    for (const row of await listFromProc({ commands: true }) ?? []) {
      if (pids.includes(row.pid)) commands.set(row.pid, row.command ?? "");
    }
    return commands;
  }
  for (const line of out.split("\n")) {
    const match = /^\s*(\d+)\s+(.*)$/.exec(line);
    if (match) commands.set(Number(match[1]), match[2]);
  }
  return commands;
}

/**
 * This process's PID namespace and start time (Linux): with our pid they name this server everywhere on
 * the machine, even to a server in another PID namespace. Null elsewhere or when /proc cannot be read.
 */
export async function processIdentity(): Promise<{ pidNamespace: string; start: number } | null> {
  if (os !== "linux") return null;
  // `$PPID` of this `sh` is our pid; its namespace link reads `pid:[4026531836]`.
  const out = await run("sh", ["-c", "readlink /proc/$PPID/ns/pid && cat /proc/$PPID/stat"]);
  const [link, line] = (out ?? "").split("\n");
  const pidNamespace = /^pid:\[(\d+)\]$/.exec(link ?? "")?.[1];
  const stat = parseProcStat(line ?? "");
  return pidNamespace && stat ? { pidNamespace, start: stat.start } : null;
}

/** The PID namespace of each of `pids` (Linux): a pid named by another namespace means something else here. */
export async function pidNamespaces(pids: readonly number[]): Promise<Map<number, string>> {
  const spaces = new Map<number, string>();
  if (pids.length === 0 || os !== "linux") return spaces;
  const script = 'for p; do echo "$p $(readlink /proc/$p/ns/pid)"; done';
  const out = await run("sh", ["-c", script, "sh", ...pids.map(String)]);
  for (const match of (out ?? "").matchAll(/^(\d+) pid:\[(\d+)\]$/gm)) spaces.set(Number(match[1]), match[2]);
  return spaces;
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
  const found = [...out.matchAll(/\/proc\/(\d+)\/environ/g)].map((match) => Number(match[1]));
  // Another user may copy a marker (the watchdog's argv shows its prefix): root must not kill for it.
  const owned = await ownedPids(found);
  return found.filter((pid) => owned.has(pid));
}

/**
 * Every process of ours (real and effective uid ours) whose environment holds a `name=...` entry, with that
 * entry's value (Linux only, through /proc/<pid>/environ; [] elsewhere).
 */
export async function readMarkers(name: string): Promise<{ pid: number; value: string }[]> {
  if (os !== "linux") return [];
  // -H: file name before each hit; -a: environ files are "binary"; -z: NUL-separated entries; -F: literally
  // (the entry's start is checked below). Root reads everyone's; another user's are kept out next.
  const out = await run("sh", ["-c", 'exec grep -HaszF -e "$0=" /proc/[0-9]*/environ', name]);
  if (!out) return [];
  const found: { pid: number; value: string }[] = [];
  for (const entry of out.split("\0")) {
    const match = /^\/proc\/(\d+)\/environ:([^=]*)=(.*)$/s.exec(entry);
    if (match && match[2] === name) found.push({ pid: Number(match[1]), value: match[3] });
  }
  // Another user's process may carry any marker it likes: it is never ours to reap.
  const owned = await ownedPids(found.map(({ pid }) => pid));
  return found.filter(({ pid }) => owned.has(pid));
}

/**
 * Those of `pids` whose real and effective uid are both ours (Linux: the `Uid:` line of /proc/<pid>/status;
 * an empty set elsewhere). Not the owner of /proc/<pid>/environ: that is root for every non-dumpable process
 * (prctl(PR_SET_DUMPABLE, 0), a setuid program), whoever runs it, so root would take any such one for its own.
 */
export async function ownedPids(pids: readonly number[]): Promise<Set<number>> {
  const owned = new Set<number>();
  if (pids.length === 0 || os !== "linux") return owned;
  // grep reads /proc/self/status as itself, a process of our uid: that line says who "we" are.
  const files = ["/proc/self/status", ...pids.map((pid) => `/proc/${pid}/status`)];
  const out = await run("grep", ["-Hs", "^Uid:", "--", ...files]);
  const uids = new Map<string, { real: string; effective: string }>();
  for (const match of (out ?? "").matchAll(/^\/proc\/(self|\d+)\/status:Uid:\s+(\d+)\s+(\d+)/gm)) {
    uids.set(match[1], { real: match[2], effective: match[3] });
  }
  const us = uids.get("self")?.effective;
  for (const pid of pids) {
    const them = uids.get(`${pid}`);
    if (us !== undefined && them?.real === us && them.effective === us) owned.add(pid);
  }
  return owned;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Folders where every POSIX system keeps ps, cat, grep and sh; nobody but root writes them. */
const SYSTEM_BIN = ["/usr/bin", "/bin", "/usr/sbin", "/sbin"];

/**
 * The PATH helper programs (ps, cat, grep, sh, and what the watchdog runs) are found on: the system folders
 * first, then only PATH's absolute entries. A folder a job may write (a relative entry such as
 * `node_modules/.bin`, a virtualenv's bin in the workspace) must never come first: a `ps` planted there by
 * a sandboxed job would run outside the sandbox, as the server.
 */
export function helperPath(path: string = Deno.env.get("PATH") ?? ""): string {
  const rest = path.split(":").filter((dir) => dir.startsWith("/") && !SYSTEM_BIN.includes(dir));
  return [...SYSTEM_BIN, ...rest].join(":");
}

async function run(program: string, args: string[]): Promise<string | null> {
  try {
    // The child's PATH also finds the program itself, and what an `sh -c` runs.
    const env = { PATH: helperPath() };
    const output = await new Deno.Command(program, {
      args,
      env,
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    })
      .output();
    return decoder.decode(output.stdout);
  } catch {
    return null;
  }
}
