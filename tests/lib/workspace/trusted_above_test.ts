import assert from "node:assert/strict";
import { lookUpward, repoLevel } from "../../../lib/workspace/trusted_above.ts";
import { NOBODY, sharedFolder } from "../../_support/shared_folder.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { isWindows, platform } from "../../../lib/platform/mod.ts";

const asRoot = !isWindows && Deno.uid() === 0;

/** The folders of `upward`'s levels, relative to `base` ("" for base itself). */
function foldersOf(upward: { levels: { folder: string }[] }, base: string): string[] {
  return upward.levels.map((level) => platform.path.relative(base, level.folder));
}

Deno.test({
  name: "lookUpward stops below a folder others may write in (mode 1777, as /tmp), whatever it holds",
  ignore: isWindows,
  async fn() {
    await using box = await sharedFolder({ "src/a.ts": "x\n" });
    await box.plant(".git/");
    await box.plant(".ignore", "*\n");
    const upward = await lookUpward(`${box.workspace}/src`, [box.workspace]);
    assert.deepEqual(foldersOf(upward, box.workspace), ["src", ""]);
    assert.equal(upward.whole, false);
    assert.equal(repoLevel(upward), undefined);
  },
});

Deno.test({
  name:
    "lookUpward stops below a folder a shared group may write in, and looks through private ones to a .git",
  ignore: !asRoot,
  async fn() {
    await using ws = await tempWorkspace({ ".git/": "", "group/": "", "group/mine/ws/": "" });
    await Deno.chmod(ws.join("group"), 0o775);
    // nogroup (65534) is the primary group of several accounts: its members could write there.
    await Deno.chown(ws.join("group"), 0, 65534);
    const cut = await lookUpward(ws.join("group/mine/ws"), [ws.join("group/mine/ws")]);
    assert.deepEqual(foldersOf(cut, ws.path), ["group/mine/ws", "group/mine"]);
    assert.equal(repoLevel(cut), undefined);
    await Deno.chmod(ws.join("group"), 0o755);
    const open = await lookUpward(ws.join("group/mine/ws"), [ws.join("group/mine/ws")]);
    assert.equal(repoLevel(open)?.folder, ws.path);
    // Group-writable by a group that is root's alone (a user private group, umask 002): looked through.
    await Deno.chmod(ws.join("group"), 0o775);
    await Deno.chown(ws.join("group"), 0, 0);
    const own = await lookUpward(ws.join("group/mine/ws"), [ws.join("group/mine/ws")]);
    assert.equal(repoLevel(own)?.folder, ws.path);
  },
});

Deno.test({
  name: "lookUpward: inside the workspace every folder counts, open to others or not",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace({ ".git/": "", "a/b/": "" });
    await Deno.chmod(ws.join("a"), 0o777);
    const upward = await lookUpward(ws.join("a/b"), [ws.path]);
    assert.deepEqual(foldersOf(upward, ws.path).slice(0, 3), ["a/b", "a", ""]);
    assert.equal(repoLevel(upward)?.folder, ws.path);
  },
});

Deno.test({
  name:
    "lookUpward stops below a folder of another user's, or one holding another user's .git or ignore file",
  ignore: !asRoot,
  async fn() {
    await using ws = await tempWorkspace({ "theirs/ws/": "", "mine/.ignore": "*\n", "mine/ws/": "" });
    await Deno.chown(ws.join("theirs"), NOBODY, NOBODY);
    assert.deepEqual(foldersOf(await lookUpward(ws.join("theirs/ws"), [ws.join("theirs/ws")]), ws.path), [
      "theirs/ws",
    ]);
    const trusted = await lookUpward(ws.join("mine/ws"), [ws.join("mine/ws")]);
    assert.deepEqual(foldersOf(trusted, ws.path).slice(0, 2), ["mine/ws", "mine"]);
    assert.ok(trusted.levels[1].has.has(".ignore"));
    await Deno.chown(ws.join("mine/.ignore"), NOBODY, NOBODY);
    assert.deepEqual(foldersOf(await lookUpward(ws.join("mine/ws"), [ws.join("mine/ws")]), ws.path), [
      "mine/ws",
    ]);
  },
});
