/** What an exited shell leaves behind: reported, listed, killed by shell_kill and timeout_s, and waited for. */
import assert from "node:assert/strict";
import { connect, textOf } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { isWindows } from "../../../lib/platform/mod.ts";
import { denoEval, isAlive, pidsIn, reap, sleepers, unsandboxedServer, waitFor } from "./processes.ts";

const posixOnly = { ignore: isWindows };

/**
 * Leaves behind a process that holds the job's stdout, prints "noise" and "ready" a second later, then sleeps:
 * its script reads the words from its arguments (the outer script's strings are already in backticks).
 */
const LATE_WRITER = denoEval(
  "new Deno.Command(Deno.execPath(), { args: [`eval`, `setTimeout(() => console.log(Deno.args.join(" +
    "String.fromCharCode(10))), 1000); setTimeout(() => {}, 300000)`, `noise`, `ready`], stdin: `null`," +
    " stdout: `inherit` }).spawn().unref()",
);

interface ListedJob {
  id: number;
  state: string;
  orphans: boolean;
}

Deno.test({
  name: "a background process with redirected output is reported, listed and killed by shell_kill",
  ...posixOnly,
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(unsandboxedServer(ws.path));
    const pids: number[] = [];
    try {
      for (const command of ["sleep 300 >/dev/null 2>&1 &", "nohup sleep 300 >/dev/null 2>&1 &"]) {
        const text = await c.text("shell_run", { command: `${command} echo pid:$!` });
        pids.push(...pidsIn(text));
        // The command line is the forked shell's until the child has exec'd sleep (both name "sleep 300"); for
        // an instant during the exec, ps knows only the new name and shows it bracketed: "[sleep]".
        assert.match(
          text,
          /^exit 0 after \d+\.\ds; its background processes still run \(1: [^\n]*(sleep 300|\[sleep\])/,
        );
        assert.match(text, /shell_kill job_id=\d stops what still runs/);
      }
      assert.equal(pids.length, 2);
      const { jobs } = (await c.call("shell_list")).structuredContent as { jobs: ListedJob[] };
      assert.deepEqual(jobs.map((job) => [job.state, job.orphans]), [["exited", true], ["exited", true]]);
      for (const [index, pid] of pids.entries()) {
        const text = await c.text("shell_kill", { job_id: index + 1 });
        assert.match(text, /^job \d exit 0 after \d+\.\ds; background processes killed\n/);
        assert.equal(await isAlive(pid), false, `pid ${pid} survived shell_kill`);
      }
      const after = (await c.call("shell_list")).structuredContent as { jobs: ListedJob[] };
      assert.deepEqual(after.jobs.map((job) => job.orphans), [false, false]);
    } finally {
      reap(pids);
    }
  },
});

Deno.test({
  name: "an exited shell's leftover is reported on every OS and killed by shell_kill",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(unsandboxedServer(ws.path));
    const text = await c.text("shell_run", { command: sleepers(1, { wait: false }) });
    const pids = pidsIn(text);
    try {
      assert.equal(pids.length, 1);
      assert.match(text, /^exit 0 after \d+\.\ds; its background processes still run/);
      const { jobs } = (await c.call("shell_list")).structuredContent as { jobs: ListedJob[] };
      assert.deepEqual(jobs.map((job) => [job.state, job.orphans]), [["exited", true]]);
      assert.match(
        await c.text("shell_kill", { job_id: 1 }),
        /^job 1 exit 0 after \d+\.\ds; background processes killed\n/,
      );
      assert.equal(await isAlive(pids[0]), false, `pid ${pids[0]} survived shell_kill`);
    } finally {
      reap(pids);
    }
  },
});

Deno.test({
  name: "timeout_s also kills what an exited shell left running",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(unsandboxedServer(ws.path));
    const text = await c.text("shell_run", {
      command: `${sleepers(1, { wait: false })}; echo started`,
      // The shell must exit before the timeout: pwsh and deno start slowly on a Windows runner.
      timeout_s: isWindows ? 6 : 1,
    });
    const pids = pidsIn(text);
    try {
      assert.match(text, /^exit 0 after .*its background processes still run/);
      await waitFor("timeout_s to kill the leftover", async () => {
        const page = await c.text("shell_output", { job_id: 1 });
        return /^job 1 exit 0 after \d+\.\ds; background processes killed at timeout_s;/.test(page);
      }, 15_000);
      assert.equal(await isAlive(pids[0]), false);
    } finally {
      reap(pids);
    }
  },
});

Deno.test({
  name: "long-poll waits for output from background processes that still hold the job's output",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(unsandboxedServer(ws.path));
    for (const [jobId, filter] of [[1, undefined], [2, "ready"]] as const) {
      const run = await c.text("shell_run", { command: LATE_WRITER });
      assert.match(run, /its background processes still run/);
      let seen = "";
      // Each call long-polls until output arrives; without a filter "noise" may come alone first.
      await waitFor("the background writer's line", async () => {
        const page = await c.text("shell_output", { job_id: jobId, wait_s: 10, filter });
        assert.doesNotMatch(page, /\(no new output\)|no line matched/, page);
        seen += page;
        return seen.includes("ready");
      });
      if (filter) assert.doesNotMatch(seen, /noise/);
    }
  },
});

Deno.test({
  name: "jobs whose background processes still run count against the job limit until they are killed",
  ...posixOnly,
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(unsandboxedServer(ws.path, { maxRunning: 2 }));
    const pids: number[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        const text = await c.text("shell_run", { command: "sleep 300 >/dev/null 2>&1 & echo pid:$!" });
        assert.match(text, /its background processes still run/);
        pids.push(...pidsIn(text));
      }
      const refused = await c.call("shell_run", { command: "sleep 300 >/dev/null 2>&1 & echo pid:$!" });
      pids.push(...pidsIn(textOf(refused)));
      assert.equal(refused.isError, true, textOf(refused));
      assert.match(
        textOf(refused),
        /^Error \[unavailable\]: Cannot start "sleep 300 [^"]*": 2 jobs are running or left processes running \(the limit\); stop one with shell_kill \(jobs 1, 2\)$/,
      );
      await c.text("shell_kill", { job_id: 1 });
      assert.match(await c.text("shell_run", { command: "echo again" }), /^exit 0 after .*\nagain$/);
    } finally {
      reap(pids);
    }
  },
});

Deno.test({
  name: "an exited job whose output a process out of sight still holds says so, and the rest follows",
  ...posixOnly,
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(unsandboxedServer(ws.path));
    // Left its group and session, dropped its marker, and its parent exited: in this test process (no
    // subreaper) nothing finds it, but it holds the job's stdout and prints a line a second later.
    const text = await c.text("shell_run", {
      command: "(setsid env -u SHELL_MCP_JOB sh -c 'sleep 1; echo late; echo pid:$$' &); echo now",
    });
    assert.match(
      text,
      /^exit 0 after \d+\.\ds; its output is still open\nnow\n\[job 1: shell_output job_id=1 shows what still comes\]$/,
    );
    let page = "";
    // Each read returns once something arrives: the late line and its pid line may come in two reads.
    await waitFor("the late line and its pid", async () => {
      page += await c.text("shell_output", { job_id: 1, wait_s: 5 });
      return page.includes("late") && pidsIn(page).length > 0;
    });
    reap(pidsIn(page));
    // Its end reaches the job once the pipe closes behind the last writer.
    let last = "";
    await waitFor("the job to say its output is complete", async () => {
      last = await c.text("shell_output", { job_id: 1, wait_s: 5 });
      return !last.includes("still open");
    });
    assert.match(last, /^job 1 exit 0 after \d+\.\ds; next/);
  },
});
