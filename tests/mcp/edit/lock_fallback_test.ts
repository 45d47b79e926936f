/**
 * Another account takes the name of our lock folder first (`mkdir /tmp/continue-mcp-locks-<uid>`: /tmp is
 * sticky, we cannot remove it). Writes go on in the fallback under the account's home, and every server of
 * ours meets there whatever its environment. Each server runs as root in a private mount namespace with its
 * own /tmp and /etc/passwd (tests/_support/isolated.ts), so the machine's real lock folder is never touched.
 */
import assert from "node:assert/strict";
import type { CallToolResult } from "../../../lib/mcp/sdk.ts";
import { textOf } from "../../_support/connect.ts";
import { canIsolate, evalIsolated, hostPath, isolatedRoot, spawnIsolated } from "../../_support/isolated.ts";
import type { StdioConnection } from "../../_support/stdio.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

const PRIMARY = "/tmp/continue-mcp-locks-0";
const HOME = "/tmp/home";
const FALLBACK = `${HOME}/.cache/continue-mcp/locks`;
const LINES = 40;
const FILE_LOCK = new URL("../../../lib/fs/file_lock.ts", import.meta.url).href;

/** An isolated root whose /tmp holds the workspace `/tmp/work` (`shared.txt`) and root's home. */
async function prepare(root: string, options: { squat: boolean; home?: string } = { squat: true }) {
  const original = Array.from({ length: LINES }, (_, i) => `line ${i} old\n`).join("");
  await isolatedRoot(root, {
    home: options.home ?? HOME,
    files: { "work/shared.txt": original, "work/.git/": "", "home/": "" },
  });
  await Deno.chmod(hostPath(root, HOME), 0o700);
  if (options.squat) {
    // nobody's folder, open to all, as the attacker made it.
    await Deno.mkdir(hostPath(root, PRIMARY));
    await Deno.chmod(hostPath(root, PRIMARY), 0o777);
    await Deno.chown(hostPath(root, PRIMARY), 65534, 65534);
  }
}

async function edit(server: StdioConnection, line: number): Promise<CallToolResult> {
  return await server.client.callTool({
    name: "edit_file",
    arguments: {
      path: "shared.txt",
      edits: [{ old_text: `line ${line} old\n`, new_text: `line ${line} new\n` }],
    },
  }) as CallToolResult;
}

/** Edits lines `from`..`to-1` one call at a time; returns those whose edit reported success. */
async function editLines(server: StdioConnection, from: number, to: number): Promise<number[]> {
  const done: number[] = [];
  for (let line = from; line < to; line++) {
    const result = await edit(server, line);
    if (!result.isError) done.push(line);
    else assert.match(textOf(result), /^Error \[(conflict|timeout)\]/);
  }
  return done;
}

async function names(folder: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(folder)) found.push(entry.name);
  return found.sort();
}

/** Two servers whose environments differ edit one file at once: every edit lands. */
async function noLostEdit(root: string, one: StdioConnection, two: StdioConnection, from = 0): Promise<void> {
  const half = from + Math.floor((LINES - from) / 2);
  const [a, b] = await Promise.all([editLines(one, from, half), editLines(two, half, LINES)]);
  const text = await Deno.readTextFile(hostPath(root, "/tmp/work/shared.txt"));
  const lost = [...a, ...b].filter((line) => !text.includes(`line ${line} new\n`));
  assert.deepEqual(lost, [], `${lost.length} of ${a.length + b.length} reported edits are missing`);
  assert.equal(a.length + b.length, LINES - from, "no edit should fail: each one waits for the other server");
}

Deno.test({
  name:
    "stdio: as root, nobody's /tmp/continue-mcp-locks-0 does not stop edits: they lock in the home's fallback",
  ignore: !canIsolate,
  async fn() {
    await using ws = await tempWorkspace();
    await prepare(ws.path);
    await using server = await spawnIsolated("edit", {
      root: ws.path,
      cwd: "/tmp/work",
      env: { HOME: "/root" },
    });
    const result = await edit(server, 0);
    assert.equal(result.isError, undefined, textOf(result));
    const write = await server.client.callTool({
      name: "edit_write",
      arguments: { path: "new.txt", content: "fresh\n" },
    }) as CallToolResult;
    assert.equal(write.isError, undefined, textOf(write));
    assert.match(await Deno.readTextFile(hostPath(ws.path, "/tmp/work/shared.txt")), /^line 0 new\n/);
    // The fallback is the home /etc/passwd gives (not $HOME), private; nobody's folder got nothing of ours.
    assert.ok((await names(hostPath(ws.path, FALLBACK))).some((name) => name.endsWith(".lock")));
    assert.equal((await Deno.lstat(hostPath(ws.path, FALLBACK))).mode! & 0o777, 0o700);
    assert.deepEqual(await names(hostPath(ws.path, PRIMARY)), []);
  },
});

Deno.test({
  name:
    "stdio: as root, two servers with different HOME/USER/TMPDIR meet in the fallback folder: no lost edit",
  ignore: !canIsolate,
  async fn() {
    await using ws = await tempWorkspace();
    await prepare(ws.path);
    await Deno.mkdir(hostPath(ws.path, "/tmp/other-home"), { mode: 0o700 });
    await using one = await spawnIsolated("edit", {
      root: ws.path,
      cwd: "/tmp/work",
      env: { HOME: "/tmp/other-home", USER: "alice", TMPDIR: "/tmp/other-home" },
    });
    await using two = await spawnIsolated("edit", { root: ws.path, cwd: "/tmp/work", env: { USER: "bob" } });
    await noLostEdit(ws.path, one, two);
    assert.deepEqual(await names(hostPath(ws.path, "/tmp/other-home")), []);
  },
});

Deno.test({
  name: "stdio: as root, when the squatter removes its folder later, servers started after still meet ours",
  ignore: !canIsolate,
  async fn() {
    await using ws = await tempWorkspace();
    await prepare(ws.path);
    await using one = await spawnIsolated("edit", {
      root: ws.path,
      cwd: "/tmp/work",
      env: { HOME: "/root" },
    });
    const first = await one.client.callTool({
      name: "edit_write",
      arguments: { path: "first.txt", content: "made in the fallback\n" },
    }) as CallToolResult;
    assert.equal(first.isError, undefined, textOf(first));
    await Deno.remove(hostPath(ws.path, PRIMARY));
    await using two = await spawnIsolated("edit", { root: ws.path, cwd: "/tmp/work" });
    // Both lock in the fallback, which exists now; nobody made the primary again.
    await noLostEdit(ws.path, one, two);
    await assert.rejects(Deno.lstat(hostPath(ws.path, PRIMARY)), Deno.errors.NotFound);
  },
});

Deno.test({
  name:
    "stdio: as root, when a temp cleaner removed our folder and nobody took the name, the next edit moves",
  ignore: !canIsolate,
  async fn() {
    await using ws = await tempWorkspace();
    await prepare(ws.path, { squat: false });
    await using server = await spawnIsolated("edit", {
      root: ws.path,
      cwd: "/tmp/work",
      env: { HOME: "/root" },
    });
    assert.equal((await edit(server, 0)).isError, undefined);
    assert.ok((await names(hostPath(ws.path, PRIMARY))).length > 0, "the first edit locked in the primary");
    // The server still has the primary in mind; nobody's is closed to us (0700), then open to all (0777).
    for (const [line, mode] of [[1, 0o700], [2, 0o777]]) {
      await Deno.remove(hostPath(ws.path, PRIMARY), { recursive: true });
      await Deno.mkdir(hostPath(ws.path, PRIMARY));
      await Deno.chmod(hostPath(ws.path, PRIMARY), mode);
      await Deno.chown(hostPath(ws.path, PRIMARY), 65534, 65534);
      const result = await edit(server, line);
      assert.equal(result.isError, undefined, textOf(result));
    }
    assert.ok((await names(hostPath(ws.path, FALLBACK))).some((name) => name.endsWith(".lock")));
    assert.match(
      await Deno.readTextFile(hostPath(ws.path, "/tmp/work/shared.txt")),
      /^line 0 new\nline 1 new\nline 2 new\n/,
    );
  },
});

Deno.test({
  name: "stdio: a user's server (uid 1000) whose folder a cleaner removed and nobody took (0700) moves on",
  ignore: !canIsolate,
  async fn() {
    await using ws = await tempWorkspace();
    await prepare(ws.path, { squat: false });
    const primary = "/tmp/continue-mcp-locks-1000";
    await Deno.mkdir(hostPath(ws.path, "/tmp/user-home"), { mode: 0o700 });
    for (const path of ["/tmp/user-home", "/tmp/work", "/tmp/work/shared.txt"]) {
      await Deno.chown(hostPath(ws.path, path), 1000, 1000);
    }
    const as1000 = { root: ws.path, cwd: "/tmp/work", uid: 1000, env: { HOME: "/tmp/elsewhere" } };
    await using one = await spawnIsolated("edit", as1000);
    const first = await edit(one, 0);
    assert.equal(first.isError, undefined, textOf(first));
    assert.equal((await Deno.lstat(hostPath(ws.path, primary))).uid, 1000);
    // Not root: a lock file cannot even be made in nobody's folder, closed to us.
    await Deno.remove(hostPath(ws.path, primary), { recursive: true });
    await Deno.mkdir(hostPath(ws.path, primary), { mode: 0o700 });
    await Deno.chown(hostPath(ws.path, primary), 65534, 65534);
    const result = await edit(one, 1);
    assert.equal(result.isError, undefined, textOf(result));
    await using two = await spawnIsolated("edit", { ...as1000, env: {} });
    await noLostEdit(ws.path, one, two, 2);
    const fallback = "/tmp/user-home/.cache/continue-mcp/locks";
    assert.ok((await names(hostPath(ws.path, fallback))).some((name) => name.endsWith(".lock")));
    assert.equal((await Deno.lstat(hostPath(ws.path, fallback))).uid, 1000);
  },
});

Deno.test({
  name: "FileLocks: as root, a run that chose the primary locks in the fallback too once it appears",
  ignore: !canIsolate,
  async fn() {
    await using ws = await tempWorkspace();
    await prepare(ws.path, { squat: false });
    // A process that holds the primary; then another that found it taken (by nobody, who then removed it:
    // the startup race) makes the fallback. From then on every run locks in both.
    const script = `import { FileLocks } from ${JSON.stringify(FILE_LOCK)};
const locks = new FileLocks();
await locks.run("/tmp/work/shared.txt", () => Promise.resolve());
console.log(JSON.stringify((await locks.lockDir("test")).folders));
await Deno.mkdir(${JSON.stringify(FALLBACK)}, { recursive: true, mode: 0o700 });
await locks.run("/tmp/work/shared.txt", () => Promise.resolve());
console.log(JSON.stringify((await locks.lockDir("test")).folders));`;
    const out = await evalIsolated(script, { root: ws.path, cwd: "/tmp/work" });
    assert.deepEqual(out.trim().split("\n").map((line) => JSON.parse(line)), [[PRIMARY], [
      PRIMARY,
      FALLBACK,
    ]]);
    const inPrimary = (await names(hostPath(ws.path, PRIMARY))).filter((name) => name.endsWith(".lock"));
    assert.ok(inPrimary.length > 0);
    assert.deepEqual(
      (await names(hostPath(ws.path, FALLBACK))).filter((name) => name.endsWith(".lock")),
      inPrimary,
      "the second run took the same lock files in the fallback",
    );
  },
});

Deno.test({
  name: "stdio: as root, with the primary taken and no usable fallback, a write is refused with both reasons",
  ignore: !canIsolate,
  async fn() {
    await using ws = await tempWorkspace();
    await prepare(ws.path, { squat: true, home: "/tmp/no-such-home" });
    await using server = await spawnIsolated("edit", {
      root: ws.path,
      cwd: "/tmp/work",
      env: { HOME: "/tmp/home" },
    });
    const result = await edit(server, 0);
    assert.equal(result.isError, true);
    assert.equal(
      textOf(result),
      `Error [unavailable]: Cannot edit "shared.txt": refusing the lock folder "${PRIMARY}": it belongs to ` +
        `another user (uid 65534, not 0), and there is no fallback: the home folder "/tmp/no-such-home" of ` +
        `uid 0 does not exist`,
    );
    // A home others may write in cannot hold the fallback either.
    await Deno.chmod(hostPath(ws.path, HOME), 0o777);
    await Deno.writeTextFile(`${ws.path}/passwd`, `root:x:0:0:root:${HOME}:/bin/sh\n`);
    const again = await edit(server, 0);
    assert.match(
      textOf(again),
      new RegExp(
        `^Error \\[unavailable\\]: Cannot edit "shared.txt": refusing the lock folder "${PRIMARY}": it belongs ` +
          `to another user \\(uid 65534, not 0\\), and the fallback "${FALLBACK}" cannot be used either: ` +
          `other users may rename it: the folder "${HOME}" above it is mode 777, owned by uid 0$`,
      ),
    );
    await assert.rejects(Deno.lstat(hostPath(ws.path, `${HOME}/.cache`)), Deno.errors.NotFound, "made there");
    assert.equal(
      await Deno.readTextFile(hostPath(ws.path, "/tmp/work/shared.txt")).then((t) => t.split("\n")[0]),
      "line 0 old",
    );
  },
});
