/** The seccomp filter, run by a small classic-BPF interpreter: what each syscall gets. */
import assert from "node:assert/strict";
import { seccompFilter } from "../../../lib/sandbox/seccomp.ts";

const ALLOW = 0x7fff0000;
const ERRNO = 0x00050000;
const KILL = 0x80000000;

/** Runs `program` on a seccomp_data of `nr`, `arch` and args (arg0, or all); returns the action. */
function run(
  program: Uint8Array,
  data: { nr: number; arch: number; arg0?: number; args?: number[] },
): number {
  const view = new DataView(program.buffer);
  const args = data.args ?? [data.arg0 ?? 0];
  const word = (offset: number) =>
    offset === 0
      ? data.nr
      : offset === 4
      ? data.arch
      : offset >= 16 && offset % 8 === 0
      ? args[(offset - 16) / 8] ?? 0
      : 0;
  let accumulator = 0;
  for (let pc = 0; pc < program.length / 8; pc++) {
    const code = view.getUint16(pc * 8, true);
    const jt = view.getUint8(pc * 8 + 2);
    const jf = view.getUint8(pc * 8 + 3);
    const k = view.getUint32(pc * 8 + 4, true);
    if (code === 0x20) accumulator = word(k);
    else if (code === 0x15) pc += accumulator === k ? jt : jf;
    else if (code === 0x35) pc += accumulator >= k ? jt : jf;
    else if (code === 0x45) pc += (accumulator & k) !== 0 ? jt : jf;
    else if (code === 0x06) return k >>> 0;
    else throw new Error(`unknown instruction ${code}`);
  }
  throw new Error("fell off the program");
}

Deno.test("seccomp x86_64: AF_UNIX sockets, io_uring and the keyring refused; the rest allowed", () => {
  const program = seccompFilter("x86_64")!;
  const x86 = 0xc000003e;
  assert.equal(run(program, { nr: 41, arch: x86, arg0: 1 }), ERRNO | 1, "socket(AF_UNIX)");
  assert.equal(run(program, { nr: 41, arch: x86, arg0: 2 }), ALLOW, "socket(AF_INET)");
  assert.equal(run(program, { nr: 41, arch: x86, arg0: 10 }), ALLOW, "socket(AF_INET6)");
  assert.equal(run(program, { nr: 53, arch: x86, arg0: 1 }), ALLOW, "socketpair(AF_UNIX)");
  for (const nr of [425, 426, 427]) {
    assert.equal(run(program, { nr, arch: x86 }), ERRNO | 38, `io_uring ${nr}`);
  }
  for (const nr of [248, 249, 250]) assert.equal(run(program, { nr, arch: x86 }), ERRNO | 1, `keyring ${nr}`);
  for (const nr of [0, 1, 59, 60, 231]) assert.equal(run(program, { nr, arch: x86 }), ALLOW, `syscall ${nr}`);
  // The 32-bit ABI (socketcall) and x32 numbers would slip past the rules: such processes are killed.
  assert.equal(run(program, { nr: 102, arch: 0x40000003 }), KILL, "i386");
  assert.equal(run(program, { nr: 0x40000000 + 41, arch: x86, arg0: 1 }), KILL, "x32");
});

Deno.test("seccomp aarch64: its own numbers; other CPUs get no filter", () => {
  const program = seccompFilter("aarch64")!;
  const arm = 0xc00000b7;
  assert.equal(run(program, { nr: 198, arch: arm, arg0: 1 }), ERRNO | 1);
  assert.equal(run(program, { nr: 198, arch: arm, arg0: 2 }), ALLOW);
  assert.equal(
    run(program, { nr: 41, arch: arm, arg0: 1 }),
    ALLOW,
    "x86's socket number is another call here",
  );
  assert.equal(run(program, { nr: 219, arch: arm }), ERRNO | 1);
  assert.equal(run(program, { nr: 425, arch: arm }), ERRNO | 38);
  assert.equal(run(program, { nr: 198, arch: 0xc000003e, arg0: 1 }), KILL);
  assert.equal(seccompFilter("riscv64"), null);
});

Deno.test("seccomp: set-id bits refused in every call taking a mode; ordinary modes and openat2's absence", () => {
  const x86 = 0xc000003e;
  const program = seccompFilter("x86_64")!;
  // chmod(path, mode), fchmodat(dfd, path, mode), openat(dfd, path, flags, mode), creat, mknodat.
  for (
    const [nr, at] of [[90, 1], [91, 1], [268, 2], [452, 2], [2, 2], [257, 3], [85, 1], [133, 1], [259, 2]]
  ) {
    const args = (mode: number) => Array.from({ length: at + 1 }, (_, i) => (i === at ? mode : 0));
    assert.equal(run(program, { nr, arch: x86, args: args(0o4755) }), ERRNO | 1, `setuid via ${nr}`);
    assert.equal(run(program, { nr, arch: x86, args: args(0o2755) }), ERRNO | 1, `setgid via ${nr}`);
    assert.equal(run(program, { nr, arch: x86, args: args(0o755) }), ALLOW, `plain mode via ${nr}`);
  }
  assert.equal(run(program, { nr: 437, arch: x86 }), ERRNO | 38, "openat2");
  const arm = 0xc00000b7;
  const arm64 = seccompFilter("aarch64")!;
  assert.equal(run(arm64, { nr: 53, arch: arm, args: [0, 0, 0o4755] }), ERRNO | 1, "fchmodat on aarch64");
  assert.equal(run(arm64, { nr: 56, arch: arm, args: [0, 0, 0o101, 0o644] }), ALLOW, "openat on aarch64");
});
