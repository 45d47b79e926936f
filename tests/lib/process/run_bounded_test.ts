import assert from "node:assert/strict";
import { runBounded } from "../../../lib/process/run_bounded.ts";
import { os } from "../../../lib/platform/mod.ts";

Deno.test({
  name: "runBounded stops reading pipes held by an escaped process after the grace, and returns the output",
  ignore: os !== "linux", // setsid(1) is util-linux
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const pidFile = `${dir}/sleep.pid`;
    let sleepPid = 0;
    try {
      // The sleep leaves the command's process group, so no tree kill reaches it; it keeps stdout open.
      const result = await runBounded("sh", ["-c", `setsid sleep 600 & echo $! > "${pidFile}"; echo out`], {
        timeoutMs: 600_000,
        drainGraceMs: 100,
      });
      sleepPid = Number(await Deno.readTextFile(pidFile));
      assert.equal(result.code, 0);
      assert.equal(new TextDecoder().decode(result.stdout), "out\n");
      assert.equal(result.abandonedPipes, true);
      assert.equal(result.stopped, undefined);
    } finally {
      if (sleepPid) Deno.kill(sleepPid, "SIGKILL");
      await Deno.remove(dir, { recursive: true });
    }
  },
});
