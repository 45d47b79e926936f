/** Bad arguments get invalid_argument naming what is wrong, before anything runs. */
import assert from "node:assert/strict";
import { connect, textOf } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { denoEval, shellServer, waitFor } from "./processes.ts";

Deno.test({
  name: "shell_output refuses a fractional since or job_id",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    await c.text("shell_run", { command: "echo hi" });
    for (const args of [{ job_id: 1, since: 0.5 }, { job_id: 1.5 }]) {
      const result = await c.call("shell_output", args);
      assert.equal(result.isError, true, JSON.stringify(args));
      assert.match(textOf(result), /invalid_argument|Invalid arguments|expected int/i);
    }
    // The refused call moved nothing: the cursor is still a whole number at the end.
    assert.match(await c.text("shell_output", { job_id: 1 }), /; next since=3\n\(no new output\)$/);
  },
});

Deno.test({
  name: "env with a NUL value or a bad name is invalid_argument naming the variable, and starts no job",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    const cases: [Record<string, string>, RegExp][] = [
      [
        { GOOD: "1", BAD: "x\0y" },
        /^Error \[invalid_argument\]: Cannot set env variable "BAD": its value contains a NUL/,
      ],
      [{ "A=B": "1" }, /^Error \[invalid_argument\]: Cannot set env variable "A=B": a name must be/],
      [{ "": "1" }, /^Error \[invalid_argument\]: Cannot set env variable "": a name must be/],
    ];
    for (const [env, expected] of cases) {
      const result = await c.call("shell_run", { command: "echo ran", env });
      assert.match(textOf(result), expected);
    }
    const listed = (await c.call("shell_list")).structuredContent as { jobs: unknown[] };
    assert.deepEqual(listed.jobs, []);
  },
});

Deno.test({
  name: "a filtered read says an unfinished line is waiting instead of (no new output)",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    await c.text("shell_start", {
      command: denoEval(
        "Deno.stdout.writeSync(new TextEncoder().encode(`abc`)); await new Promise((go) => setTimeout(go, 300000))",
      ),
    });
    await waitFor("the job to print", async () => {
      const listed = (await c.call("shell_list")).structuredContent as { jobs: { unread_bytes: number }[] };
      return listed.jobs[0].unread_bytes === 3;
    });
    const text = await c.text("shell_output", { job_id: 1, filter: "a" });
    assert.match(
      text,
      /^job 1 running [^\n]*\n\(no finished line yet: 3 bytes of an unfinished line wait; the filter tests it once it ends, or read it now without filter\)$/,
    );
    assert.match(await c.text("shell_output", { job_id: 1 }), /\nabc$/);
    await c.text("shell_kill", { job_id: 1 });
  },
});
