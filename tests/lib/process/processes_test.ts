import assert from "node:assert/strict";
import { findMarked, listFromProc, listProcesses, readMarkers } from "../../../lib/process/processes.ts";
import { os } from "../../../lib/platform/mod.ts";

Deno.test({
  name: "listProcesses sees a child in its own group, and findMarked finds it by its environment (Linux)",
  ignore: os !== "linux",
  fn: async () => {
    const child = new Deno.Command("sleep", {
      args: ["30"],
      env: { PROCESSES_TEST_MARK: "x1" },
      detached: true,
      stdout: "null",
      stderr: "null",
    }).spawn();
    try {
      const rows = await listProcesses();
      assert.deepEqual(rows?.find((row) => row.pid === child.pid), {
        pid: child.pid,
        pgid: child.pid,
        zombie: false,
      });
      assert.ok(rows!.some((row) => row.pid === Deno.pid));
      // The fallback for containers without procps reads the same table from /proc.
      const fromProc = await listFromProc();
      assert.deepEqual(fromProc?.find((row) => row.pid === child.pid), {
        pid: child.pid,
        pgid: child.pid,
        zombie: false,
      });
      assert.deepEqual(await findMarked([child.pid, Deno.pid], "PROCESSES_TEST_MARK=x1"), [child.pid]);
      assert.deepEqual(await findMarked([child.pid], "PROCESSES_TEST_MARK=x"), []);
      assert.deepEqual(await findMarked([child.pid], "PROCESSES_TEST_MARK=", true), [child.pid]);
      assert.deepEqual(await readMarkers("PROCESSES_TEST_MARK"), [{ pid: child.pid, value: "x1" }]);
      const withCommands = await listProcesses({ commands: true });
      assert.match(withCommands?.find((row) => row.pid === child.pid)?.command ?? "", /sleep 30$/);
      const procCommands = await listFromProc({ commands: true });
      assert.equal(procCommands?.find((row) => row.pid === child.pid)?.command, "sleep");
    } finally {
      child.kill("SIGKILL");
      await child.status;
    }
  },
});

Deno.test({
  name: "listProcesses reads ps on every POSIX system (macOS too): a detached child leads its own group",
  ignore: os === "windows",
  fn: async () => {
    const child = new Deno.Command("sleep", { args: ["30"], detached: true, stdout: "null", stderr: "null" })
      .spawn();
    try {
      const rows = await listProcesses();
      assert.deepEqual(rows?.find((row) => row.pid === child.pid), {
        pid: child.pid,
        pgid: child.pid,
        zombie: false,
      });
    } finally {
      child.kill("SIGKILL");
      await child.status;
    }
  },
});

Deno.test({
  name: "Windows has no process table here: callers fall back to taskkill, and no marker search runs",
  ignore: os !== "windows",
  fn: async () => {
    assert.equal(await listProcesses(), null);
    assert.deepEqual(await findMarked([Deno.pid], "PATH=", true), []);
  },
});
