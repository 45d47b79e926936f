/**
 * The seccomp filter every sandboxed job runs under (bubblewrap loads it with `--seccomp FD`), as classic
 * BPF built here: no compiled helper to ship. It refuses what mounts cannot hide:
 * - `socket(AF_UNIX, …)` → EPERM: a host unix socket anywhere on the disk (docker.sock, an ssh-agent, a
 *   tmux or VS Code IPC socket) is unreachable wherever it lives. `socketpair` stays allowed (pipes between
 *   a program's own processes: Node, Python, Deno use it).
 * - io_uring → ENOSYS: its operations would bypass the socket rule (programs fall back to plain calls).
 * - the kernel keyring (`add_key`, `keyctl`, `request_key`) → EPERM: it may hold the user's secrets.
 * - setuid and setgid bits (`chmod`, `fchmod`, `fchmodat(2)`, `open(at)`, `creat`, `mknod(at)` with a mode
 *   holding 06000) → EPERM, and `openat2` (its mode is behind a pointer) → ENOSYS: a root server's job is
 *   global uid 0, so a setuid copy of a shell it leaves in the workspace would give root to any local user
 *   (seen; `nosuid` holds only inside the sandbox).
 * - any other ABI (32-bit or x32 calls on a 64-bit kernel) → the process is killed: its syscall numbers
 *   differ, so the rules above would not apply to it.
 * Pure data; x86_64 and aarch64 only (elsewhere the sandbox runs without it and says so).
 * @module
 */

/** Syscall numbers and the audit architecture of one CPU. */
interface Arch {
  audit: number;
  socket: number;
  keyring: number[];
  /** Calls taking a file mode: [syscall number, index of the mode argument]. */
  modes: [number, number][];
}

const ARCHES: Record<string, Arch> = {
  // chmod, fchmod, fchmodat, fchmodat2, open, openat, creat, mknod, mknodat.
  "x86_64": {
    audit: 0xc000003e,
    socket: 41,
    keyring: [248, 249, 250],
    modes: [[90, 1], [91, 1], [268, 2], [452, 2], [2, 2], [257, 3], [85, 1], [133, 1], [259, 2]],
  },
  // fchmod, fchmodat, fchmodat2, openat, mknodat (the others do not exist there).
  aarch64: {
    audit: 0xc00000b7,
    socket: 198,
    keyring: [217, 218, 219],
    modes: [[52, 1], [53, 2], [452, 2], [56, 3], [33, 2]],
  },
};

/** io_uring_setup, io_uring_enter, io_uring_register: one number on every architecture. */
const IO_URING = [425, 426, 427];
/** openat2: one number on every architecture. */
const OPENAT2 = 437;
/** S_ISUID | S_ISGID. */
const SETID_BITS = 0o6000;
const AF_UNIX = 1;
const EPERM = 1;
const ENOSYS = 38;
/** x86_64: syscall numbers with this bit are the x32 ABI. */
const X32_BIT = 0x40000000;

const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const RET_KILL_PROCESS = 0x80000000;
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;
/** Offsets in `struct seccomp_data`: nr, arch, then args[0] (its low 32 bits, little-endian). */
const NR = 0;
const ARCH = 4;
const ARG0 = 16;

type Instruction = [code: number, jt: number, jf: number, k: number];

/** The filter for `arch` (`Deno.build.arch`), as the bytes `--seccomp` reads; null for other CPUs. */
export function seccompFilter(arch: string): Uint8Array | null {
  const cpu = ARCHES[arch];
  if (!cpu) return null;
  const program: Instruction[] = [
    [LD_W_ABS, 0, 0, ARCH],
    [JEQ_K, 1, 0, cpu.audit],
    [RET_K, 0, 0, RET_KILL_PROCESS],
    [LD_W_ABS, 0, 0, NR],
  ];
  if (arch === "x86_64") program.push([JGE_K, 0, 1, X32_BIT], [RET_K, 0, 0, RET_KILL_PROCESS]);
  // Each rule: if nr == n, return; else fall through to the next (jump offsets are relative).
  for (const nr of cpu.keyring) program.push([JEQ_K, 0, 1, nr], [RET_K, 0, 0, RET_ERRNO | EPERM]);
  for (const nr of [...IO_URING, OPENAT2]) program.push([JEQ_K, 0, 1, nr], [RET_K, 0, 0, RET_ERRNO | ENOSYS]);
  // A call taking a mode: refused when the mode holds a set-id bit, else allowed (its number matched, no
  // later rule concerns it; the accumulator now holds the argument, not the number).
  for (const [nr, arg] of cpu.modes) {
    program.push(
      [JEQ_K, 0, 4, nr],
      [LD_W_ABS, 0, 0, ARG0 + 8 * arg],
      [JSET_K, 0, 1, SETID_BITS],
      [RET_K, 0, 0, RET_ERRNO | EPERM],
      [RET_K, 0, 0, RET_ALLOW],
    );
  }
  program.push(
    [JEQ_K, 0, 3, cpu.socket],
    [LD_W_ABS, 0, 0, ARG0],
    [JEQ_K, 0, 1, AF_UNIX],
    [RET_K, 0, 0, RET_ERRNO | EPERM],
    [RET_K, 0, 0, RET_ALLOW],
  );
  const bytes = new Uint8Array(program.length * 8);
  const view = new DataView(bytes.buffer);
  program.forEach(([code, jt, jf, k], i) => {
    view.setUint16(i * 8, code, true);
    view.setUint8(i * 8 + 2, jt);
    view.setUint8(i * 8 + 3, jf);
    view.setUint32(i * 8 + 4, k >>> 0, true);
  });
  return bytes;
}
