import assert from "node:assert/strict";
import {
  commandsOf,
  findMarked,
  listFromProc,
  listProcesses,
  pidNamespaces,
  processIdentity,
  readMarkers,
} from "../../../lib/process/processes.ts";
import { parseProcStat } from "../../../lib/platform/linux_process.ts";
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
      // Linux reads the table from /proc: sessions and start times too, no procps needed.
      const rows = await listProcesses();
      const row = rows?.find((row) => row.pid === child.pid);
      assert.deepEqual({ ...row, start: undefined }, {
        pid: child.pid,
        ppid: Deno.pid,
        pgid: child.pid,
        sid: child.pid,
        start: undefined,
        zombie: false,
      });
      assert.ok(row!.start! > 0);
      assert.ok(rows!.some((row) => row.pid === Deno.pid));
      const fromProc = await listFromProc();
      assert.deepEqual(fromProc?.find((row) => row.pid === child.pid), row);
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
      const rows = await listProcesses({ commands: true });
      const row = rows?.find((row) => row.pid === child.pid);
      assert.deepEqual([row?.ppid, row?.pgid, row?.zombie], [Deno.pid, child.pid, false]);
      assert.match(row?.command ?? "", /sleep 30$/);
      assert.match((await commandsOf([child.pid, Deno.pid])).get(child.pid) ?? "", /sleep 30$/);
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

Deno.test("parseProcStat reads pid, parent, group, session, state and start time, whatever the name holds", () => {
  const line = "4242 (a b) (c)) S 1 4242 4240 0 -1 4194560 95 0 0 0 0 0 0 0 20 0 1 0 987654 2478080 166";
  assert.deepEqual(parseProcStat(line), {
    pid: 4242,
    ppid: 1,
    pgid: 4242,
    sid: 4240,
    state: "S",
    start: 987654,
    comm: "a b) (c)",
  });
  assert.equal(parseProcStat("not a stat line"), null);
});

Deno.test({
  name: "processIdentity and pidNamespaces name our PID namespace (Linux)",
  ignore: os !== "linux",
  fn: async () => {
    const self = await processIdentity();
    assert.match(self?.pidNamespace ?? "", /^\d+$/);
    const row = (await listProcesses())?.find((row) => row.pid === Deno.pid);
    assert.equal(self?.start, row?.start);
    assert.deepEqual(await pidNamespaces([Deno.pid]), new Map([[Deno.pid, self!.pidNamespace]]));
  },
});
