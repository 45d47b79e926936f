/** The per-user HTTP token file, on real files in temp folders: made private, and trusted only when private. */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  readOrCreateToken,
  rotateToken,
  TokenFileError,
  tokenFilePath,
} from "../../../lib/mcp/http_token.ts";
import { isWindows } from "../../../lib/platform/mod.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

const POSIX = { ignore: isWindows };
const ROOT = { ignore: isWindows || Deno.uid() !== 0 };
const PLANTED = "planted-token-that-an-attacker-knows-0123456789";

/** `<config>/continue-mcp/http-token-8808` under a fresh temp config home. */
async function tempTokenFile() {
  const home = await tempWorkspace();
  const file = tokenFilePath({ XDG_CONFIG_HOME: home.path, HOME: home.path, APPDATA: home.path }, 8808)!;
  return { home, file, dir: join(file, "..") };
}

function refusedWith(pattern: RegExp) {
  return (error: unknown) => error instanceof TokenFileError && pattern.test(error.message);
}

Deno.test("token file: created once as a 0600 file in a 0700 folder, then reused; deleting it rotates it", async () => {
  const { home, file, dir } = await tempTokenFile();
  await using _ = home;
  const token = await readOrCreateToken(file);
  assert.match(token, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(await readOrCreateToken(file), token);
  if (!isWindows) {
    assert.equal((await Deno.lstat(dir)).mode! & 0o777, 0o700);
    assert.equal((await Deno.lstat(file)).mode! & 0o777, 0o600);
  }
  assert.deepEqual((await Array.fromAsync(Deno.readDir(dir))).map((entry) => entry.name), [
    "http-token-8808",
  ]);
  await Deno.remove(file);
  const rotated = await readOrCreateToken(file);
  assert.notEqual(rotated, token);
});

Deno.test("token file: servers starting at once all end up with the one token on disk", async () => {
  const { home, file } = await tempTokenFile();
  await using _ = home;
  const tokens = await Promise.all(Array.from({ length: 8 }, () => readOrCreateToken(file)));
  assert.equal(new Set(tokens).size, 1);
  assert.equal((await Deno.readTextFile(file)).trim(), tokens[0]);
});

Deno.test(
  "token file: a planted folder other users can write (0777) is refused, not used",
  POSIX,
  async () => {
    const { home, file, dir } = await tempTokenFile();
    await using _ = home;
    await Deno.mkdir(dir);
    await Deno.chmod(dir, 0o777);
    await Deno.writeTextFile(file, PLANTED, { mode: 0o600 });
    await assert.rejects(
      readOrCreateToken(file),
      refusedWith(/HTTP token: the folder ".*continue-mcp" has mode 777, open to other users: .*chmod 700/),
    );
  },
);

Deno.test("token file: a symlink planted as the token file is refused, even to a private file of ours", async () => {
  const { home, file, dir } = await tempTokenFile();
  await using _ = home;
  await Deno.mkdir(dir, { mode: 0o700 });
  const target = home.join("known-token");
  await Deno.writeTextFile(target, PLANTED, { mode: 0o600 });
  await Deno.symlink(target, file, { type: "file" });
  await assert.rejects(
    readOrCreateToken(file),
    refusedWith(/HTTP token: the file ".*http-token-8808" is a symbolic link/),
  );
  // A dangling one too: creating the file must not write through it.
  await Deno.remove(file);
  await Deno.symlink(home.join("elsewhere"), file, { type: "file" });
  await assert.rejects(readOrCreateToken(file), refusedWith(/is a symbolic link/));
  await assert.rejects(Deno.lstat(home.join("elsewhere")), Deno.errors.NotFound);
});

Deno.test("token file: a symlinked token folder is refused", async () => {
  const { home, file, dir } = await tempTokenFile();
  await using _ = home;
  await Deno.mkdir(home.join("other"), { mode: 0o700 });
  await Deno.symlink(home.join("other"), dir, { type: "dir" });
  await assert.rejects(
    readOrCreateToken(file),
    refusedWith(/HTTP token: the folder ".*" is a symbolic link/),
  );
});

Deno.test("token file: one other users can read is refused as possibly leaked", POSIX, async () => {
  const { home, file, dir } = await tempTokenFile();
  await using _ = home;
  await Deno.mkdir(dir, { mode: 0o700 });
  await Deno.writeTextFile(file, PLANTED);
  await Deno.chmod(file, 0o644);
  await assert.rejects(readOrCreateToken(file), refusedWith(/has mode 644, open to other users/));
});

Deno.test(
  "token file: a folder or file owned by another user is refused (root trusts no one's file)",
  ROOT,
  async () => {
    const { home, file, dir } = await tempTokenFile();
    await using _ = home;
    await Deno.mkdir(dir, { mode: 0o700 });
    await Deno.writeTextFile(file, PLANTED, { mode: 0o600 });
    await Deno.chown(file, 65534, 65534);
    await assert.rejects(
      readOrCreateToken(file),
      refusedWith(/HTTP token: the file ".*" belongs to another user \(uid 65534, not 0\)/),
    );
    await Deno.chown(dir, 65534, 65534);
    await assert.rejects(
      readOrCreateToken(file),
      refusedWith(/HTTP token: the folder ".*" belongs to another user \(uid 65534/),
    );
  },
);

Deno.test("token file: a file without a real token in it is refused, not served with a weak token", async () => {
  const { home, file, dir } = await tempTokenFile();
  await using _ = home;
  await Deno.mkdir(dir, { mode: 0o700 });
  for (const content of ["", "short\n", `${"x".repeat(20)} ${"y".repeat(20)}`]) {
    await Deno.writeTextFile(file, content, { mode: 0o600 });
    await assert.rejects(readOrCreateToken(file), refusedWith(/at least 32 visible ASCII characters/));
  }
});

Deno.test("token file: rotating replaces the token with a fresh private one, and replaces a symlink rather than write through it", async () => {
  const { home, file, dir } = await tempTokenFile();
  await using _ = home;
  const token = await readOrCreateToken(file);
  await rotateToken(file);
  const rotated = await readOrCreateToken(file);
  assert.notEqual(rotated, token);
  if (!isWindows) assert.equal((await Deno.lstat(file)).mode! & 0o777, 0o600);
  assert.deepEqual((await Array.fromAsync(Deno.readDir(dir))).map((entry) => entry.name), [
    "http-token-8808",
  ]);
  const target = home.join("known-token");
  await Deno.writeTextFile(target, PLANTED, { mode: 0o600 });
  await Deno.remove(file);
  await Deno.symlink(target, file, { type: "file" });
  await rotateToken(file);
  assert.equal(await Deno.readTextFile(target), PLANTED);
  assert.ok((await Deno.lstat(file)).isFile);
  assert.notEqual(await readOrCreateToken(file), PLANTED);
});
