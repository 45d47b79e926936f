/**
 * Windows Job Objects through kernel32 (Deno FFI, `--allow-ffi`): each job's shell is put in its own Job
 * Object with kill-on-close, so killing the tree needs no pid (a pid may already name another process once
 * ours exited: Windows reuses them quickly) and reaches orphans whose parent already exited, which
 * `taskkill /T` misses. Only this server holds the job handles (they are not inheritable), so the trees also
 * die when the server dies, however it ends. Loaded only on Windows (see mod.ts); the struct layouts are
 * pure functions tested on every OS.
 * @module
 */

/** A process tree owned through a Job Object. */
export interface OwnedTree {
  /** Whether any process of the tree still runs. */
  alive(): boolean;
  /**
   * If `pid` names a process in this Job Object, holds a handle to it, so that the pid cannot be given to
   * another process until the returned release is called; null when it is not ours (any more).
   */
  holdMember(pid: number): (() => void) | null;
  /** Ends every process of the tree at once (TerminateJobObject). */
  terminate(): void;
  /** Releases the Job Object; kill-on-close ends whatever still runs in it. Safe to call twice. */
  close(): void;
}

/** `JOBOBJECTINFOCLASS` values and flags (winnt.h). */
const JOB_OBJECT_BASIC_ACCOUNTING_INFORMATION = 1;
const JOB_OBJECT_EXTENDED_LIMIT_INFORMATION = 9;
export const JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE = 0x2000;
const PROCESS_TERMINATE = 0x0001;
const PROCESS_SET_QUOTA = 0x0100;
const PROCESS_QUERY_LIMITED_INFORMATION = 0x1000;
/** Exit code given to processes ended with the job; 1, as `taskkill /F` gives. */
const KILLED_EXIT_CODE = 1;

/** Size of JOBOBJECT_EXTENDED_LIMIT_INFORMATION on 64-bit Windows. */
export const EXTENDED_LIMIT_INFORMATION_SIZE = 144;
/** Offset of `BasicLimitInformation.LimitFlags` (after two LARGE_INTEGER time limits). */
const LIMIT_FLAGS_OFFSET = 16;
/** Size of JOBOBJECT_BASIC_ACCOUNTING_INFORMATION, and the offset of its `ActiveProcesses`. */
export const ACCOUNTING_INFORMATION_SIZE = 48;
const ACTIVE_PROCESSES_OFFSET = 40;

/** JOBOBJECT_EXTENDED_LIMIT_INFORMATION (x64) with only `LimitFlags` set. */
export function extendedLimitInformation(limitFlags: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(EXTENDED_LIMIT_INFORMATION_SIZE);
  new DataView(bytes.buffer).setUint32(LIMIT_FLAGS_OFFSET, limitFlags, true);
  return bytes;
}

/** `ActiveProcesses` of a JOBOBJECT_BASIC_ACCOUNTING_INFORMATION. */
export function activeProcessesOf(accounting: Uint8Array): number {
  return new DataView(accounting.buffer, accounting.byteOffset).getUint32(ACTIVE_PROCESSES_OFFSET, true);
}

const SYMBOLS = {
  CreateJobObjectW: { parameters: ["pointer", "pointer"], result: "pointer" },
  SetInformationJobObject: { parameters: ["pointer", "i32", "buffer", "u32"], result: "i32" },
  QueryInformationJobObject: { parameters: ["pointer", "i32", "buffer", "u32", "pointer"], result: "i32" },
  OpenProcess: { parameters: ["u32", "i32", "u32"], result: "pointer" },
  AssignProcessToJobObject: { parameters: ["pointer", "pointer"], result: "i32" },
  IsProcessInJob: { parameters: ["pointer", "pointer", "buffer"], result: "i32" },
  TerminateJobObject: { parameters: ["pointer", "u32"], result: "i32" },
  CloseHandle: { parameters: ["pointer"], result: "i32" },
} as const;

/** The kernel32 functions used here, as Deno FFI types them (tests pass a fake). */
export type Kernel32 = Deno.DynamicLibrary<typeof SYMBOLS>["symbols"];

let kernel32: Kernel32 | null | undefined;

/**
 * kernel32's job functions, or null when FFI is not permitted (a server run without `--allow-ffi`) or the
 * library cannot be opened: callers then fall back to `taskkill`.
 */
function loadKernel32(): Kernel32 | null {
  if (kernel32 !== undefined) return kernel32;
  kernel32 = null;
  try {
    if (Deno.permissions.querySync({ name: "ffi" }).state === "granted") {
      kernel32 = Deno.dlopen("kernel32.dll", SYMBOLS).symbols;
    }
  } catch {
    // Not Windows, or no kernel32: no Job Objects.
  }
  return kernel32;
}

/**
 * Puts the running process `pid` in a new kill-on-close Job Object and returns it; null when Job Objects
 * are unavailable or the process is gone. Call it right after spawning, in the same turn: the caller still
 * holds the child's handle then, so `pid` is surely the child. Processes the child itself started before
 * this call are not in the job (the caller kills those by pid while the child runs); later ones are.
 */
export function ownProcessTree(pid: number): OwnedTree | null {
  const api = loadKernel32();
  return api ? ownProcessTreeWith(api, pid) : null;
}

/** {@link ownProcessTree} through the given kernel32 functions. */
export function ownProcessTreeWith(api: Kernel32, pid: number): OwnedTree | null {
  const job = api.CreateJobObjectW(null, null);
  if (job === null) return null;
  const limits = extendedLimitInformation(JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE);
  let owned =
    api.SetInformationJobObject(job, JOB_OBJECT_EXTENDED_LIMIT_INFORMATION, limits, limits.length) !== 0;
  if (owned) {
    const process = api.OpenProcess(PROCESS_SET_QUOTA | PROCESS_TERMINATE, 0, pid);
    owned = process !== null && api.AssignProcessToJobObject(job, process) !== 0;
    if (process !== null) api.CloseHandle(process);
  }
  if (!owned) {
    api.CloseHandle(job);
    return null;
  }
  return jobTree(api, job);
}

function jobTree(api: Kernel32, job: Deno.PointerObject): OwnedTree {
  let open = true;
  const accounting = new Uint8Array(ACCOUNTING_INFORMATION_SIZE);
  const member = new Uint8Array(4);
  return {
    holdMember(pid) {
      if (!open) return null;
      const process = api.OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, 0, pid);
      if (process === null) return null;
      member.fill(0);
      if (api.IsProcessInJob(process, job, member) !== 0 && member.some((byte) => byte !== 0)) {
        return () => api.CloseHandle(process);
      }
      api.CloseHandle(process);
      return null;
    },
    alive() {
      if (!open) return false;
      const ok = api.QueryInformationJobObject(
        job,
        JOB_OBJECT_BASIC_ACCOUNTING_INFORMATION,
        accounting,
        accounting.length,
        null,
      );
      return ok !== 0 && activeProcessesOf(accounting) > 0;
    },
    terminate() {
      if (open) api.TerminateJobObject(job, KILLED_EXIT_CODE);
    },
    close() {
      if (!open) return;
      open = false;
      api.CloseHandle(job);
    },
  };
}
