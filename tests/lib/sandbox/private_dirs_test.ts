/** The sandbox's temp folders: a killed server's (folder and filter file) are swept, a live one's never. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sweepDeadTempDirs } from "../../../lib/sandbox/private_dirs.ts";
import { processIdentity } from "../../../lib/process/processes.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { os } from "../../../lib/platform/mod.ts";

Deno.test({
  name: "private temp: a dead server's folder and filter file are swept; a live server's and others' stay",
  ignore: os !== "linux",
  fn: async () => {
    const self = (await processIdentity())!;
    const dead = new Deno.Command("true").spawn();
    await dead.status;
    const deadId = `${self.pidNamespace}-${dead.pid}-${self.start}-0123abcd`;
    const liveId = `${self.pidNamespace}-${Deno.pid}-${self.start}-89abcdef`;
    const otherNamespace = `1-${dead.pid}-1-0123abcd`;
    await using parent = await tempWorkspace({
      [`${deadId}/job-file`]: "x",
      [`${deadId}.bpf`]: "filter",
      [`${liveId}/job-file`]: "x",
      [`${liveId}.bpf`]: "filter",
      [`${otherNamespace}/job-file`]: "x",
    });
    const removed = await sweepDeadTempDirs(parent.path);
    assert.deepEqual(removed.sort(), [deadId, `${deadId}.bpf`]);
    const left = (await Array.fromAsync(Deno.readDir(parent.path))).map((entry) => entry.name).sort();
    assert.deepEqual(left, [liveId, `${liveId}.bpf`, otherNamespace].sort());
    assert.equal(await Deno.readTextFile(join(parent.path, liveId, "job-file")), "x");
  },
});
