/**
 * setuid and setgid bits of a file a non-root user edits. The kernel clears them when such a user writes the
 * file; only the owner may set them again, and setgid only when in the file's group. So a write that would
 * clear a bit this user cannot set again is refused up front (`permission_denied`), before any byte changes;
 * one whose bits the owner can set again keeps them. The server runs as uid 1000 (setpriv) in a private mount
 * namespace with its own /tmp (tests/_support/isolated.ts), so it needs root to start; the files are made by
 * root with owners and groups a plain user could not give them.
 */
import assert from "node:assert/strict";
import type { CallToolResult } from "../../../lib/mcp/sdk.ts";
import { textOf } from "../../_support/connect.ts";
import { canIsolate, hostPath, isolatedRoot, spawnIsolated } from "../../_support/isolated.ts";
import type { StdioConnection } from "../../_support/stdio.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

const TEXT = "alpha one\nbeta two\n";
const AS_USER = { cwd: "/tmp/work", uid: 1000, env: { HOME: "/tmp/user-home" } };

/** An isolated root whose /tmp/work (owned by uid 1000) holds `files`, each with its owner, group and mode. */
async function prepare(root: string, files: Record<string, [uid: number, gid: number, mode: number]>) {
  await isolatedRoot(root, {
    home: "/root",
    files: {
      "work/": "",
      "user-home/": "",
      ...Object.fromEntries(Object.keys(files).map((f) => [`work/${f}`, TEXT])),
    },
  });
  for (const folder of ["/tmp/work", "/tmp/user-home"]) await Deno.chown(hostPath(root, folder), 1000, 1000);
  for (const [name, [uid, gid, mode]] of Object.entries(files)) {
    const path = hostPath(root, `/tmp/work/${name}`);
    await Deno.chown(path, uid, gid);
    await Deno.chmod(path, mode); // After the chown, which clears setuid and setgid.
  }
}

function edit(server: StdioConnection, paths: string[]): Promise<CallToolResult> {
  return server.client.callTool({
    name: "edit_file",
    arguments: paths.length === 1
      ? { path: paths[0], edits: [{ old_text: "beta two", new_text: "beta TWO" }] }
      : { edits: paths.map((path) => ({ path, old_text: "beta two", new_text: "beta TWO" })) },
  }) as Promise<CallToolResult>;
}

async function modeOf(root: string, name: string): Promise<string> {
  return ((await Deno.stat(hostPath(root, `/tmp/work/${name}`))).mode! & 0o7777).toString(8);
}

Deno.test({
  name: "stdio: as uid 1000, a setgid file of a group the owner is not in (6755, 1000:root) is refused " +
    "(permission_denied) before any byte changes",
  ignore: !canIsolate,
  async fn() {
    await using ws = await tempWorkspace();
    await prepare(ws.path, { "b.txt": [1000, 0, 0o6755] });
    await using server = await spawnIsolated("edit", { root: ws.path, ...AS_USER });
    const result = await edit(server, ["b.txt"]);
    assert.equal(result.isError, true, textOf(result));
    assert.match(
      textOf(result),
      /permission_denied.*Cannot edit "b\.txt": writing it would clear its setgid bit \(mode 6755\), which this user cannot set again \(not in its group\); nothing was written; clear the bit first \(chmod g-s "b\.txt"\) if the write should go ahead/,
    );
    assert.equal(await Deno.readTextFile(hostPath(ws.path, "/tmp/work/b.txt")), TEXT);
    assert.equal(await modeOf(ws.path, "b.txt"), "6755");
  },
});

Deno.test({
  name: "stdio: as uid 1000, a group member's edit of root's setgid file (2775, root:1000) is refused, " +
    "mode and bytes unchanged",
  ignore: !canIsolate,
  async fn() {
    await using ws = await tempWorkspace();
    await prepare(ws.path, { "g.txt": [0, 1000, 0o2775] });
    await using server = await spawnIsolated("edit", { root: ws.path, ...AS_USER });
    const result = await edit(server, ["g.txt"]);
    assert.equal(result.isError, true, textOf(result));
    assert.match(
      textOf(result),
      /permission_denied.*Cannot edit "g\.txt": writing it would clear its setgid bit \(mode 2775\), which this user cannot set again \(only its owner can\); nothing was written; its owner can clear the bit first \(chmod g-s "g\.txt"\) if the write should go ahead/,
    );
    assert.equal(await Deno.readTextFile(hostPath(ws.path, "/tmp/work/g.txt")), TEXT);
    assert.equal(await modeOf(ws.path, "g.txt"), "2775");
  },
});

Deno.test({
  name: "stdio: as uid 1000, an edit of two files refuses both when one would lose its setuid bit: nothing " +
    "is written",
  ignore: !canIsolate,
  async fn() {
    await using ws = await tempWorkspace();
    await prepare(ws.path, { "a.txt": [1000, 1000, 0o644], "s.txt": [0, 1000, 0o4775] });
    await using server = await spawnIsolated("edit", { root: ws.path, ...AS_USER });
    const result = await edit(server, ["a.txt", "s.txt"]);
    assert.equal(result.isError, true, textOf(result));
    assert.match(textOf(result), /would clear its setuid bit \(mode 4775\)/);
    assert.equal(await Deno.readTextFile(hostPath(ws.path, "/tmp/work/a.txt")), TEXT);
    assert.equal(await Deno.readTextFile(hostPath(ws.path, "/tmp/work/s.txt")), TEXT);
    assert.equal(await modeOf(ws.path, "s.txt"), "4775");
  },
});

Deno.test({
  name: "stdio: as uid 1000, its own hard-linked 6755 file of its own group is written in place and keeps " +
    "both bits (put back after the kernel cleared them)",
  ignore: !canIsolate,
  async fn() {
    await using ws = await tempWorkspace();
    await prepare(ws.path, { "own.txt": [1000, 1000, 0o6755] });
    await Deno.link(hostPath(ws.path, "/tmp/work/own.txt"), hostPath(ws.path, "/tmp/work/twin.txt"));
    await using server = await spawnIsolated("edit", { root: ws.path, ...AS_USER });
    const result = await edit(server, ["own.txt"]);
    assert.equal(result.isError, undefined, textOf(result));
    assert.match(textOf(result), /written in place/);
    assert.equal(await Deno.readTextFile(hostPath(ws.path, "/tmp/work/twin.txt")), "alpha one\nbeta TWO\n");
    assert.equal(await modeOf(ws.path, "own.txt"), "6755");
  },
});
