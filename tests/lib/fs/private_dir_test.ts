import assert from "node:assert/strict";
import {
  checkAncestors,
  checkPrivateFile,
  ensurePrivateDir,
  NotPrivateError,
  openPrivateFile,
  ownUid,
} from "../../../lib/fs/private_dir.ts";
import { isWindows } from "../../../lib/platform/mod.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

const posix = { ignore: isWindows };

Deno.test("ensurePrivateDir: absent is false unless created, created 0700", posix, async () => {
  await using dir = await tempWorkspace();
  const folder = dir.join("a", "oauth");
  assert.equal(await ensurePrivateDir(folder, { create: false }), false);
  assert.equal(await ensurePrivateDir(folder, { create: true }), true);
  assert.equal((await Deno.stat(folder)).mode! & 0o777, 0o700);
  assert.equal(await ensurePrivateDir(folder, { create: false }), true);
});

Deno.test(
  "ensurePrivateDir: refuses a folder open to others, a link to a folder, and a file",
  posix,
  async () => {
    await using dir = await tempWorkspace({ "open/": "", "private/": "", "file": "x" });
    await Deno.chmod(dir.join("open"), 0o755);
    await Deno.chmod(dir.join("private"), 0o700);
    await Deno.symlink(dir.join("private"), dir.join("link"));
    const refused = async (path: string, why: RegExp) =>
      await assert.rejects(ensurePrivateDir(path, { create: true }), (error) => {
        assert.ok(error instanceof NotPrivateError);
        assert.match(error.message, why);
        return true;
      });
    await refused(dir.join("open"), /has mode 755, open to other users: .*chmod 700/);
    await refused(dir.join("link"), /is a symbolic link/);
    await refused(dir.join("file"), /is not a folder/);
  },
);

Deno.test(
  "checkPrivateFile: a link is refused, never followed; a file open to others is refused",
  posix,
  async () => {
    await using dir = await tempWorkspace({ "elsewhere.json": "{}", "open.json": "{}", "ok.json": "{}" });
    await Deno.chmod(dir.join("ok.json"), 0o600);
    await Deno.chmod(dir.join("open.json"), 0o644);
    await Deno.symlink(dir.join("elsewhere.json"), dir.join("planted.json"));
    assert.equal(await checkPrivateFile(dir.join("absent.json")), false);
    assert.equal(await checkPrivateFile(dir.join("ok.json")), true);
    await assert.rejects(
      checkPrivateFile(dir.join("planted.json")),
      /is a symbolic link/,
    );
    await assert.rejects(checkPrivateFile(dir.join("open.json")), /has mode 644/);
  },
);

Deno.test({
  name: "ensurePrivateDir: refuses a folder that belongs to another user",
  // Giving a folder away takes root.
  ignore: isWindows || Deno.uid() !== 0,
  fn: async () => {
    await using dir = await tempWorkspace({ "theirs/": "" });
    await Deno.chmod(dir.join("theirs"), 0o700);
    await Deno.chown(dir.join("theirs"), 65534, 65534);
    assert.equal(await ownUid(), 0);
    await assert.rejects(
      ensurePrivateDir(dir.join("theirs"), { create: false }),
      /belongs to another user \(uid 65534, not 0\)/,
    );
  },
});

Deno.test(
  "openPrivateFile: creates 0600, opens an existing private file, never opens or creates through a link",
  posix,
  async () => {
    await using dir = await tempWorkspace({ "victim.txt": "precious\n", "open.txt": "x" });
    await Deno.chmod(dir.join("open.txt"), 0o644);
    const made = await openPrivateFile(dir.join("new.txt"), { write: true, create: true });
    assert.ok(made);
    made.close();
    assert.equal((await Deno.lstat(dir.join("new.txt"))).mode! & 0o777, 0o600);
    const again = await openPrivateFile(dir.join("new.txt"), { write: true, create: true });
    assert.ok(again);
    again.close();
    assert.equal(await openPrivateFile(dir.join("absent.txt")), null);
    await Deno.symlink(dir.join("victim.txt"), dir.join("to-victim"));
    await Deno.symlink(dir.join("would-be-made"), dir.join("dangling"));
    for (const name of ["to-victim", "dangling"]) {
      await assert.rejects(
        openPrivateFile(dir.join(name), { write: true, create: true }),
        /is a symbolic link/,
      );
    }
    await assert.rejects(openPrivateFile(dir.join("open.txt")), /has mode 644/);
    assert.equal(await Deno.readTextFile(dir.join("victim.txt")), "precious\n");
    await assert.rejects(Deno.lstat(dir.join("would-be-made")), Deno.errors.NotFound);
  },
);

Deno.test(
  "checkAncestors: a folder others may rename away (through any folder above it, or a link's target) is refused",
  posix,
  async () => {
    await using dir = await tempWorkspace({ "open/mine/": "", "sticky/mine/": "", "safe/": "" });
    await Deno.chmod(dir.join("open"), 0o777);
    await Deno.chmod(dir.join("sticky"), 0o1777);
    await checkAncestors(dir.join("sticky", "mine"));
    // Before it is made: the folders that exist are checked.
    await checkAncestors(dir.join("sticky", "not", "yet"));
    await assert.rejects(checkAncestors(dir.join("open", "not", "yet")), /the folder ".*open" above it/);
    await assert.rejects(
      checkAncestors(dir.join("open", "mine")),
      /other users may rename it: the folder ".*open" above it is mode 777, owned by uid \d+/,
    );
    // A link in a safe folder is only as safe as where it points.
    await Deno.symlink(dir.join("open"), dir.join("safe", "link"));
    await assert.rejects(checkAncestors(dir.join("safe", "link", "mine")), /the folder ".*open" above it/);
  },
);
