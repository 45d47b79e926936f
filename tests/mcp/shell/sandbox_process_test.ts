/**
 * What the shell server promises about processes holds inside the sandbox too: whole-tree kill, timeouts,
 * what an exited shell leaves running (reported without bubblewrap's own init), jobs dying with a SIGKILLed
 * server, and placeholders kept until the job's last process is gone. Processes are found by their command
 * lines: a sandboxed job's `$!` is a pid of its own namespace.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { connect } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { listProcesses } from "../../../lib/process/processes.ts";
import { shellServer, waitFor } from "./processes.ts";
import { spawnShellProcess } from "./server_process.ts";
import { bwrapUsable } from "./sandbox_support.ts";

const sandboxed = { ignore: !bwrapUsable };

/** Live processes whose whole command line matches `pattern`. */
async function running(pattern: RegExp): Promise<string[]> {
  const rows = await listProcesses({ commands: true }) ?? [];
  return rows.filter((row) => !row.zombie && pattern.test(row.command ?? "")).map((row) => row.command!);
}

Deno.test({
  name: "sandboxed: shell_kill ends the whole tree, setsid and TERM-ignoring processes included",
  ...sandboxed,
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    const started = await c.text("shell_start", {
      command: "sleep 7401 & (setsid sleep 7402 &); sh -c \"trap '' TERM; exec sleep 7403\" & echo up; wait",
    });
    assert.match(started, /^job 1 running/);
    await c.text("shell_output", { job_id: 1, wait_s: 10, filter: "up" });
    await waitFor("the tree to start", async () => (await running(/^sleep 740[123]$/)).length === 3);
    assert.match(await c.text("shell_kill", { job_id: 1 }), /^job 1 killed/);
    assert.deepEqual(await running(/^sleep 740[123]$/), []);
  },
});

Deno.test({
  name: "sandboxed: timeout_s kills the tree and keeps the partial output",
  ...sandboxed,
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    const text = await c.text("shell_run", {
      command: "echo partial; sleep 7411 & sleep 7412",
      timeout_s: 1,
    });
    assert.match(text, /^timeout after \d+\.\ds \(tree killed\)\npartial$/);
    assert.deepEqual(await running(/^sleep 741[12]$/), []);
  },
});

Deno.test({
  name: "sandboxed: what an exited shell leaves running is reported by its command, listed, and killed",
  ...sandboxed,
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    const text = await c.text("shell_run", { command: "sleep 7421 >/dev/null 2>&1 &" });
    // bubblewrap's init (the namespace's pid 1) keeps the namespace alive; it is not the job's to name.
    assert.match(text, /^exit 0 after \d+\.\ds; its background processes still run \(1: sleep 7421\)/);
    const listed = (await c.call("shell_list")).structuredContent as { jobs: { orphans: boolean }[] };
    assert.equal(listed.jobs[0].orphans, true);
    // The placeholders stay while the namespace lives: its mounts sit on them.
    assert.ok((await Deno.stat(join(ws.path, ".vscode"))).isDirectory);
    assert.match(await c.text("shell_kill", { job_id: 1 }), /background processes killed/);
    assert.deepEqual(await running(/^sleep 7421$/), []);
    await waitFor("the placeholders to go", async () => {
      const names = (await Array.fromAsync(Deno.readDir(ws.path))).map((entry) => entry.name);
      return names.length === 0;
    });
  },
});

Deno.test({
  name: "sandboxed: stdin, cursor reads and capped output work as outside",
  ...sandboxed,
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    await c.text("shell_start", { command: "while read line; do echo got $line; done", stdin: "pipe" });
    assert.match(await c.text("shell_input", { job_id: 1, text: "hello", eof: true }), /got hello/);
    const big = await c.text("shell_run", { command: "seq 1 200000" });
    assert.ok(big.length <= 30_000, `${big.length} characters`);
    assert.match(big, /shell_output job_id=2 since=\d+ shows them/);
  },
});

Deno.test({
  name: "stdio sandboxed: SIGKILL of the server still ends its jobs (the watchdog ends bubblewrap's init)",
  ...sandboxed,
  fn: async () => {
    await using ws = await tempWorkspace();
    await using server = await spawnShellProcess({ cwd: ws.path });
    await server.call("shell_start", { command: "sleep 7431" });
    await server.call("shell_run", { command: "setsid sleep 7432 >/dev/null 2>&1 &" });
    await waitFor("the jobs to start", async () => (await running(/^sleep 743[12]$/)).length === 2);
    Deno.kill(server.pid, "SIGKILL");
    await server.status;
    await waitFor(
      "every job process to die",
      async () => (await running(/^sleep 743[12]$/)).length === 0,
      8000,
    );
  },
});
