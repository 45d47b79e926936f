/**
 * Linux process calls through libc (Deno FFI, `--allow-ffi`): become the reaper of our orphaned descendants
 * (`prctl(PR_SET_CHILD_SUBREAPER)`), list our children, read a process's `/proc/<pid>/stat`, and reap one
 * adopted zombie (`waitpid(pid, WNOHANG)`). Deno refuses /proc reads without `--allow-all`; libc does not
 * ask. Loaded on Linux only (see mod.ts); the parser is a pure function tested everywhere.
 * @module
 */

/** The fields of `/proc/<pid>/stat` a process tree needs. */
export interface ProcStat {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
  /** One letter: R, S, D, Z (zombie), X (dead), T… */
  state: string;
  /** Start time in clock ticks after boot: with the pid, it names one process for the whole uptime. */
  start: number;
  /** The program name (at most 15 bytes). */
  comm: string;
}

/** Parses one `/proc/<pid>/stat` line; null when it is not one. */
export function parseProcStat(line: string): ProcStat | null {
  // `pid (comm) state ppid pgrp session ...`; comm may hold spaces and parentheses: split after the last ")".
  const open = line.indexOf(" (");
  const close = line.lastIndexOf(")");
  if (open < 0 || close < open) return null;
  const fields = line.slice(close + 2).split(" ");
  // After comm: state is field 3 of the man page, so field N is fields[N - 3] (starttime is field 22).
  const row = {
    pid: Number(line.slice(0, open)),
    ppid: Number(fields[1]),
    pgid: Number(fields[2]),
    sid: Number(fields[3]),
    state: fields[0],
    start: Number(fields[19]),
    comm: line.slice(open + 2, close),
  };
  return Number.isInteger(row.pid) && Number.isInteger(row.start) ? row : null;
}

/** What this module offers once libc is loaded. */
export interface LinuxFamily {
  /** Makes orphaned descendants ours instead of init's; false when the kernel refuses. */
  becomeSubreaper(): boolean;
  /** Pids of our direct children (of every thread); null when the kernel has no `children` files. */
  children(): number[] | null;
  /** `/proc/<pid>/stat` of a process, or null when it is gone. */
  stat(pid: number): ProcStat | null;
  /** Reaps `pid` if it is a zombie child of ours; true when it was reaped (its pid is free again). */
  reap(pid: number): boolean;
}

const SYMBOLS = {
  prctl: { parameters: ["i32", "u64", "u64", "u64", "u64"], result: "i32" },
  waitpid: { parameters: ["i32", "buffer", "i32"], result: "i32" },
  open: { parameters: ["buffer", "i32"], result: "i32" },
  read: { parameters: ["i32", "buffer", "usize"], result: "isize" },
  close: { parameters: ["i32"], result: "i32" },
  opendir: { parameters: ["buffer"], result: "pointer" },
  readdir: { parameters: ["pointer"], result: "pointer" },
  closedir: { parameters: ["pointer"], result: "i32" },
} as const;

const PR_SET_CHILD_SUBREAPER = 36;
const WNOHANG = 1;
const O_RDONLY_CLOEXEC = 0o2000000;
/** `struct dirent`: d_ino (8), d_off (8), d_reclen (2), d_type (1), then d_name (glibc and musl, 64-bit). */
const DIRENT_NAME_OFFSET = 19;

let family: LinuxFamily | null | undefined;

/** libc's process calls, or null without `--allow-ffi` or a loadable libc (callers then do without). */
export function linuxFamily(): LinuxFamily | null {
  if (family !== undefined) return family;
  family = null;
  try {
    if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") return null;
    for (const name of ["libc.so.6", "libc.so"]) {
      try {
        family = familyOf(Deno.dlopen(name, SYMBOLS).symbols);
        break;
      } catch {
        // Try the next name (musl has no libc.so.6).
      }
    }
  } catch {
    // No FFI here.
  }
  return family;
}

function familyOf(libc: Deno.DynamicLibrary<typeof SYMBOLS>["symbols"]): LinuxFamily {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const buffer = new Uint8Array(4096);
  const status = new Uint8Array(4);
  const path = (text: string) => encoder.encode(`${text}\0`);
  const readSmall = (file: string): string | null => {
    const fd = libc.open(path(file), O_RDONLY_CLOEXEC);
    if (fd < 0) return null;
    let text = "";
    try {
      while (true) {
        const n = Number(libc.read(fd, buffer, BigInt(buffer.length)));
        if (n <= 0) break;
        text += decoder.decode(buffer.subarray(0, n), { stream: true });
      }
    } finally {
      libc.close(fd);
    }
    return text;
  };
  const list = (dir: string): string[] | null => {
    const handle = libc.opendir(path(dir));
    if (handle === null) return null;
    const names: string[] = [];
    try {
      for (let entry = libc.readdir(handle); entry !== null; entry = libc.readdir(handle)) {
        const name = new Deno.UnsafePointerView(entry).getCString(DIRENT_NAME_OFFSET);
        if (name !== "." && name !== "..") names.push(name);
      }
    } finally {
      libc.closedir(handle);
    }
    return names;
  };
  return {
    becomeSubreaper: () => libc.prctl(PR_SET_CHILD_SUBREAPER, 1n, 0n, 0n, 0n) === 0,
    children() {
      const pids: number[] = [];
      for (const task of list("/proc/self/task") ?? []) {
        const text = readSmall(`/proc/self/task/${task}/children`);
        if (text === null) return null;
        for (const pid of text.split(" ")) if (pid.trim()) pids.push(Number(pid));
      }
      return pids;
    },
    stat(pid) {
      const line = readSmall(`/proc/${pid}/stat`);
      return line === null ? null : parseProcStat(line.trim());
    },
    reap: (pid) => libc.waitpid(pid, status, WNOHANG) === pid,
  };
}
