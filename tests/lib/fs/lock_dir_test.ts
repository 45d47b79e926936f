import assert from "node:assert/strict";
import { defaultLockDir, FileLocks } from "../../../lib/fs/file_lock.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { isWindows } from "../../../lib/platform/mod.ts";

const posix = !isWindows;
const MODULE = new URL("../../../lib/fs/file_lock.ts", import.meta.url).href;

/** The default lock folder as a process with environment `env` (`null` unsets a variable) finds it. */
async function lockDirUnder(env: Record<string, string | null>): Promise<string> {
  const command = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      "--quiet",
      `import { defaultLockDir } from ${JSON.stringify(MODULE)};
console.log(await defaultLockDir());`,
    ],
    env: Object.fromEntries(Object.entries(env).filter(([, value]) => value !== null)) as Record<
      string,
      string
    >,
    clearEnv: true,
    stderr: "inherit",
  });
  const { stdout, success } = await command.output();
  assert.ok(success);
  return new TextDecoder().decode(stdout).trim();
}

/** Expects `run` to be refused at once with `unavailable` and a message matching `reason`. */
async function refused(locks: FileLocks, path: string, reason: RegExp): Promise<void> {
  let ran = false;
  await assert.rejects(
    locks.run(path, () => Promise.resolve(ran = true), { action: 'Cannot edit "a.txt"' }),
    (error: Error & { code?: string }) => {
      assert.equal(error.code, "unavailable", error.message);
      assert.match(error.message, /^Cannot edit "a\.txt": refusing the lock (folder|file) "/);
      assert.match(error.message, reason);
      return true;
    },
  );
  assert.equal(ran, false);
}

Deno.test({
  name: "defaultLockDir: /tmp/continue-mcp-locks-<uid> whatever USER and TMPDIR say, or without them",
  ignore: !posix,
  async fn() {
    await using ws = await tempWorkspace({ "t/": "" });
    const path = Deno.env.get("PATH") ?? "";
    const dirs = await Promise.all([
      lockDirUnder({ PATH: path, USER: "alice", TMPDIR: ws.join("t") }),
      lockDirUnder({ PATH: path, USER: "bob", LOGNAME: "bob" }),
      lockDirUnder({ PATH: path, USER: null, TMPDIR: null }),
    ]);
    assert.deepEqual(dirs, Array(3).fill(`/tmp/continue-mcp-locks-${Deno.uid()}`));
    assert.equal(await defaultLockDir(), dirs[0]);
  },
});

Deno.test({
  name: "FileLocks: the lock folder is created 0700",
  ignore: !posix,
  async fn() {
    await using ws = await tempWorkspace();
    await new FileLocks({ dir: ws.join("locks") }).run(ws.join("a.txt"), () => Promise.resolve());
    assert.equal((await Deno.lstat(ws.join("locks"))).mode! & 0o777, 0o700);
  },
});

Deno.test({
  name: "FileLocks: a lock folder other users may write in is refused at once, not waited on",
  ignore: !posix,
  async fn() {
    await using ws = await tempWorkspace({ "locks/": "" });
    await Deno.chmod(ws.join("locks"), 0o777);
    await refused(
      new FileLocks({ dir: ws.join("locks") }),
      ws.join("a.txt"),
      /has mode 777, open to other users/,
    );
    await Deno.chmod(ws.join("locks"), 0o775);
    await refused(new FileLocks({ dir: ws.join("locks") }), ws.join("a.txt"), /mode 775/);
  },
});

Deno.test({
  name: "FileLocks: as root, a lock folder that belongs to another user (nobody) is refused",
  ignore: !posix || Deno.uid() !== 0,
  async fn() {
    await using ws = await tempWorkspace({ "locks/": "" });
    await Deno.chmod(ws.join("locks"), 0o700);
    await Deno.chown(ws.join("locks"), 65534, 65534);
    await refused(
      new FileLocks({ dir: ws.join("locks") }),
      ws.join("a.txt"),
      /belongs to another user \(uid 65534, not 0\): its owner or root must remove it/,
    );
  },
});

Deno.test({
  name:
    "FileLocks: a lock folder that is a symlink, or sits in a folder anyone may rename it from, is refused",
  ignore: !posix,
  async fn() {
    await using ws = await tempWorkspace({ "real/": "", "open/locks/": "", "link": { symlink: "real" } });
    await refused(new FileLocks({ dir: ws.join("link") }), ws.join("a.txt"), /is a symbolic link/);
    await Deno.chmod(ws.join("open", "locks"), 0o700);
    await Deno.chmod(ws.join("open"), 0o777);
    await refused(
      new FileLocks({ dir: ws.join("open", "locks") }),
      ws.join("a.txt"),
      /other users may rename it/,
    );
    // Sticky like /tmp: others may not rename what is ours.
    await Deno.chmod(ws.join("open"), 0o1777);
    assert.equal(
      await new FileLocks({ dir: ws.join("open", "locks") }).run(ws.join("a"), () => Promise.resolve(1)),
      1,
    );
  },
});

Deno.test("FileLocks: symlinks planted as lock files are refused and their targets left untouched", async () => {
  await using ws = await tempWorkspace({ "locks/": "", "victim.txt": "precious\n" });
  await Deno.chmod(ws.join("locks"), 0o700);
  const before = await Deno.lstat(ws.join("victim.txt"));
  // Every one of the 256 lock files, so the path's bucket is one of them: half to a file, half to nowhere.
  for (let bucket = 0; bucket < 256; bucket++) {
    const target = bucket % 2 ? ws.join("victim.txt") : ws.join(`created-${bucket}`);
    await Deno.symlink(target, ws.join("locks", `${bucket.toString(16).padStart(2, "0")}.lock`));
  }
  const locks = new FileLocks({ dir: ws.join("locks") });
  for (const name of ["a.txt", "b.txt", "c.txt", "d.txt"]) {
    await refused(locks, ws.join(name), /lock file ".*\.lock": the file ".*" is a symbolic link: remove it/);
  }
  assert.equal(await Deno.readTextFile(ws.join("victim.txt")), "precious\n");
  assert.equal((await Deno.lstat(ws.join("victim.txt"))).mtime?.getTime(), before.mtime?.getTime());
  const created: string[] = [];
  for await (const entry of Deno.readDir(ws.path)) {
    if (entry.name.startsWith("created-")) created.push(entry.name);
  }
  assert.deepEqual(created, []);
});
