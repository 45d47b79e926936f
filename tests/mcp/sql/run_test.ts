import assert from "node:assert/strict";
import { runBackend } from "../../../mcp/sql/run.ts";
import { ToolError } from "../../../lib/mcp/errors.ts";
import { os } from "../../../lib/platform/mod.ts";
import { listProcesses } from "../../../lib/process/processes.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { pollUntil } from "../../_support/poll.ts";

async function alive(pid: number): Promise<boolean> {
  const rows = await listProcesses();
  return rows?.some((row) => row.pid === pid && !row.zombie) ?? false;
}

// The backend's grandchild (`sleep`) holds the output pipes; a kill of the direct child alone leaves it running
// and the call waiting for the pipes until it ends by itself.
for (const how of ["timeout", "abort"] as const) {
  Deno.test({
    name:
      `runBackend on ${how}: kills the backend's whole tree and returns though a grandchild held the pipes`,
    ignore: os === "windows",
    fn: async () => {
      await using ws = await tempWorkspace({});
      const controller = new AbortController();
      const call = runBackend("sh", ["-c", "sleep 600 & echo $! > sleep.pid; wait"], {
        cwd: ws.path,
        timeoutMs: how === "timeout" ? 1000 : 600_000,
        signal: controller.signal,
        action: "Cannot lint SQL",
      }).then(() => null, (error: unknown) => error);
      const pidFile = ws.join("sleep.pid");
      const readPid = async () => Number((await Deno.readTextFile(pidFile).catch(() => "")).trim()) || 0;
      if (how === "abort") {
        assert.ok(
          await pollUntil(async () => await readPid() > 0, 20_000),
          "the backend never started sleep",
        );
        controller.abort();
      }
      let settled = false;
      call.finally(() => settled = true);
      const returned = await pollUntil(() => settled, 20_000);
      const sleepPid = await readPid();
      if (!returned && sleepPid) Deno.kill(sleepPid, "SIGKILL"); // let the broken call end
      const error = await call;
      assert.ok(returned, "runBackend did not return while the grandchild held its pipes");
      assert.ok(error instanceof ToolError);
      assert.equal(error.code, "timeout");
      assert.match(
        error.message,
        how === "timeout" ? /did not finish within 1 s/ : /^Cannot lint SQL: cancelled$/,
      );
      if (sleepPid) assert.equal(await alive(sleepPid), false, "the grandchild sleep survived");
    },
  });
}

Deno.test({
  name: "runBackend returns the output and exit code of a backend that ends by itself",
  ignore: os === "windows",
  fn: async () => {
    await using ws = await tempWorkspace({});
    const output = await runBackend("sh", ["-c", "echo out; echo err >&2; exit 3"], {
      cwd: ws.path,
      timeoutMs: 60_000,
      action: "Cannot lint SQL",
    });
    assert.deepEqual(output, { code: 3, stdout: "out\n", stderr: "err\n" });
  },
});
