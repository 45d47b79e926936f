/** The Windows kill order with a stand-in Job Object and a stand-in `taskkill` that leaves a file: runs on every OS. */
import assert from "node:assert/strict";
import type { OwnedTree } from "../../../lib/platform/mod.ts";
import { killWindowsTree } from "../../../lib/process/tree_kill.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

/** A `taskkill` stand-in: the current Deno writes `pid` into `file`. */
function fakeTaskkill(file: string, pid: number): string[] {
  return [Deno.execPath(), "eval", `Deno.writeTextFileSync(${JSON.stringify(file)}, "${pid}")`];
}

function fakeTree(member: boolean, events: string[]): OwnedTree {
  let alive = 2;
  return {
    alive: () => alive > 0,
    holdMember: (pid) => {
      events.push(`hold ${pid}`);
      return member ? () => events.push(`release ${pid}`) : null;
    },
    terminate: () => {
      events.push("terminate");
      alive = 0;
    },
    close: () => events.push("close"),
  };
}

Deno.test("with a Job Object: taskkill only while a member's handle pins the pid, then the job is ended", async () => {
  await using ws = await tempWorkspace();
  for (const member of [true, false]) {
    const file = ws.join(`taskkill-${member}`);
    const events: string[] = [];
    await killWindowsTree(41, fakeTaskkill(file, 41), { owned: fakeTree(member, events), rootRunning: true });
    const ran = await Deno.readTextFile(file).then(() => true, () => false);
    // rootRunning is not trusted when there is a Job Object: membership is the proof.
    assert.equal(ran, member, `member=${member}`);
    assert.deepEqual(events, member ? ["hold 41", "release 41", "terminate"] : ["hold 41", "terminate"]);
  }
});

Deno.test("without a Job Object: taskkill only while the root was not reaped", async () => {
  await using ws = await tempWorkspace();
  for (const rootRunning of [true, false]) {
    const file = ws.join(`taskkill-${rootRunning}`);
    await killWindowsTree(42, fakeTaskkill(file, 42), { owned: null, rootRunning });
    assert.equal(await Deno.readTextFile(file).then(() => true, () => false), rootRunning);
  }
});
