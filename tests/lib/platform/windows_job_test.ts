import assert from "node:assert/strict";
import { isWindows, ownProcessTree } from "../../../lib/platform/mod.ts";
import {
  ACCOUNTING_INFORMATION_SIZE,
  activeProcessesOf,
  EXTENDED_LIMIT_INFORMATION_SIZE,
  extendedLimitInformation,
  JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
  type Kernel32,
  ownProcessTreeWith,
} from "../../../lib/platform/windows_job.ts";
import { isAlive, pidsIn, reap, waitFor } from "../../mcp/shell/processes.ts";

Deno.test("the x64 extended limit struct carries only kill-on-close, in BasicLimitInformation.LimitFlags", () => {
  const bytes = extendedLimitInformation(JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE);
  assert.equal(bytes.length, EXTENDED_LIMIT_INFORMATION_SIZE);
  // Two LARGE_INTEGER time limits come first; LimitFlags is the DWORD after them.
  assert.deepEqual([...bytes.subarray(16, 20)], [0x00, 0x20, 0x00, 0x00]);
  assert.equal(bytes.reduce((sum, byte) => sum + byte, 0), 0x20);
});

Deno.test("ActiveProcesses is read from offset 40 of the accounting struct, little-endian", () => {
  const accounting = new Uint8Array(ACCOUNTING_INFORMATION_SIZE);
  accounting[36] = 9; // TotalProcesses: must not be taken for ActiveProcesses
  accounting[40] = 3;
  accounting[41] = 1;
  assert.equal(activeProcessesOf(accounting), 259);
});

/** A kernel32 stand-in that records every call; `fail` names the functions that return failure. */
function fakeKernel32(options: { fail?: string[]; activeProcesses?: number; inJob?: boolean } = {}) {
  const calls: string[] = [];
  const handle = (name: string) => ({ handle: name }) as unknown as Deno.PointerObject;
  const ok = (name: string) => options.fail?.includes(name) ? 0 : 1;
  const name = (pointer: Deno.PointerValue) => (pointer as unknown as { handle: string } | null)?.handle;
  const api = {
    CreateJobObjectW: () => {
      calls.push("CreateJobObjectW");
      return options.fail?.includes("CreateJobObjectW") ? null : handle("job");
    },
    SetInformationJobObject: (job: Deno.PointerValue, kind: number, info: Uint8Array, size: number) => {
      const flags = new DataView(info.buffer).getUint32(16, true);
      calls.push(`SetInformationJobObject ${name(job)} ${kind} ${size} 0x${flags.toString(16)}`);
      return ok("SetInformationJobObject");
    },
    QueryInformationJobObject: (job: Deno.PointerValue, kind: number, info: Uint8Array) => {
      calls.push(`QueryInformationJobObject ${name(job)} ${kind}`);
      info[40] = options.activeProcesses ?? 0;
      return 1;
    },
    OpenProcess: (access: number, inherit: number, pid: number) => {
      calls.push(`OpenProcess 0x${access.toString(16)} ${inherit} ${pid}`);
      return options.fail?.includes("OpenProcess") ? null : handle(`process ${pid}`);
    },
    AssignProcessToJobObject: (job: Deno.PointerValue, process: Deno.PointerValue) => {
      calls.push(`AssignProcessToJobObject ${name(job)} ${name(process)}`);
      return ok("AssignProcessToJobObject");
    },
    IsProcessInJob: (process: Deno.PointerValue, job: Deno.PointerValue, result: Uint8Array) => {
      calls.push(`IsProcessInJob ${name(process)} ${name(job)}`);
      result[0] = options.inJob ? 1 : 0;
      return 1;
    },
    TerminateJobObject: (job: Deno.PointerValue, code: number) => {
      calls.push(`TerminateJobObject ${name(job)} ${code}`);
      return 1;
    },
    CloseHandle: (pointer: Deno.PointerValue) => {
      calls.push(`CloseHandle ${name(pointer)}`);
      return 1;
    },
  };
  return { api: api as unknown as Kernel32, calls };
}

Deno.test("owning a tree: a kill-on-close job, the process opened to assign it, that handle closed at once", () => {
  const { api, calls } = fakeKernel32({ activeProcesses: 2, inJob: true });
  const tree = ownProcessTreeWith(api, 4242)!;
  assert.deepEqual(calls.splice(0), [
    "CreateJobObjectW",
    "SetInformationJobObject job 9 144 0x2000",
    "OpenProcess 0x101 0 4242",
    "AssignProcessToJobObject job process 4242",
    "CloseHandle process 4242",
  ]);
  assert.equal(tree.alive(), true);
  const release = tree.holdMember(7)!;
  assert.deepEqual(calls.splice(0), [
    "QueryInformationJobObject job 1",
    "OpenProcess 0x1000 0 7",
    "IsProcessInJob process 7 job",
  ]);
  release(); // the handle that pinned pid 7 is closed only now
  tree.terminate();
  tree.close();
  tree.close();
  assert.equal(tree.alive(), false);
  tree.terminate();
  assert.deepEqual(calls, ["CloseHandle process 7", "TerminateJobObject job 1", "CloseHandle job"]);
});

Deno.test("a pid outside the job is not held, and its handle is closed", () => {
  const { api, calls } = fakeKernel32({ inJob: false });
  const tree = ownProcessTreeWith(api, 1)!;
  calls.length = 0;
  assert.equal(tree.holdMember(99), null);
  assert.deepEqual(calls, [
    "OpenProcess 0x1000 0 99",
    "IsProcessInJob process 99 job",
    "CloseHandle process 99",
  ]);
  assert.equal(tree.alive(), false);
});

Deno.test("when any step fails there is no tree and no handle left open", () => {
  assert.equal(ownProcessTreeWith(fakeKernel32({ fail: ["CreateJobObjectW"] }).api, 1), null);
  for (const step of ["SetInformationJobObject", "OpenProcess", "AssignProcessToJobObject"]) {
    const { api, calls } = fakeKernel32({ fail: [step] });
    assert.equal(ownProcessTreeWith(api, 5), null, step);
    const opened = calls.filter((call) => call.startsWith("OpenProcess")).length;
    const closed = calls.filter((call) => call.startsWith("CloseHandle"));
    assert.equal(closed.at(-1), "CloseHandle job", step);
    assert.equal(closed.length, 1 + (step === "OpenProcess" ? 0 : opened), `${step}: ${calls.join(", ")}`);
  }
});

Deno.test({
  name: "no Job Objects off Windows: process groups own the trees there",
  ignore: isWindows,
  fn: () => {
    assert.equal(ownProcessTree(Deno.pid), null);
  },
});

Deno.test({
  name: "a Job Object ends a tree whose root already exited, orphans included, and only it (Windows)",
  ignore: !isWindows || Deno.permissions.querySync({ name: "ffi" }).state !== "granted",
  fn: async () => {
    // The root starts a sleeper, prints its pid and exits: the sleeper is an orphan taskkill /T cannot find.
    const script =
      "const kid = new Deno.Command(Deno.execPath(), { args: [`eval`, `setTimeout(() => {}, 300000)`]," +
      " stdout: `null` }).spawn(); console.log(`pid:${kid.pid}`); kid.unref();";
    const root = new Deno.Command(Deno.execPath(), { args: ["eval", script], stdout: "piped" }).spawn();
    const tree = ownProcessTree(root.pid);
    const bystander = new Deno.Command(Deno.execPath(), {
      args: ["eval", "setTimeout(() => {}, 300000)"],
      stdout: "null",
    }).spawn();
    const pids: number[] = [bystander.pid];
    try {
      assert.ok(tree, "ownProcessTree returned null with --allow-ffi on Windows");
      const { stdout } = await root.output();
      pids.push(...pidsIn(new TextDecoder().decode(stdout)));
      assert.equal(pids.length, 2);
      assert.ok(await isAlive(pids[1]), "the orphan should still run");
      assert.equal(tree.alive(), true);
      // Only members are held (their pids then cannot be reused): the orphan is one, the bystander not.
      const release = tree.holdMember(pids[1]);
      assert.ok(release, "the orphan is not seen as a member of the job");
      release();
      assert.equal(tree.holdMember(bystander.pid), null);
      tree.terminate();
      await waitFor("the job to empty", () => Promise.resolve(!tree.alive()));
      assert.equal(await isAlive(pids[1]), false, "the orphan survived TerminateJobObject");
      assert.equal(await isAlive(bystander.pid), true, "a process outside the job was killed");
    } finally {
      tree?.close();
      reap(pids);
      await bystander.status;
    }
  },
});

Deno.test({
  name: "closing a kill-on-close Job Object ends what still runs in it (Windows)",
  ignore: !isWindows || Deno.permissions.querySync({ name: "ffi" }).state !== "granted",
  fn: async () => {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["eval", "setTimeout(() => {}, 300000)"],
      stdout: "null",
    }).spawn();
    const tree = ownProcessTree(child.pid);
    try {
      assert.ok(tree);
      tree.close();
      const status = await child.status;
      assert.equal(status.success, false);
    } finally {
      reap([child.pid]);
    }
  },
});
