import assert from "node:assert/strict";
import { accountHome, ownedHome, passwdHome } from "../../../lib/platform/account_home.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { isWindows } from "../../../lib/platform/mod.ts";

const PASSWD = `# comment:x:0:0::/comment:/bin/sh
+nis:::::::
root:x:0:0:root:/root:/bin/bash
toor:x:0:0:second root:/toor:/bin/sh
alice:x:1000:1000:Alice,,,:/home/alice/:/bin/bash
bob:x:10000:100::relative/home:/bin/sh
`;

Deno.test("passwdHome: the first line of the uid, as getpwuid reads the file; only absolute homes", () => {
  assert.equal(passwdHome(PASSWD, 0), "/root");
  assert.equal(passwdHome(PASSWD, 1000), "/home/alice");
  assert.equal(passwdHome(PASSWD, 100), null, "a gid or a prefix of a uid is no match");
  assert.equal(passwdHome(PASSWD, 10000), null);
  assert.equal(passwdHome(PASSWD, 4242), null);
  assert.equal(passwdHome("", 0), null);
});

Deno.test("ownedHome: the one folder of /Users the uid owns; none or several is no home", () => {
  const folder = (path: string, uid: number) => ({ path, uid, isDirectory: true });
  assert.equal(ownedHome([folder("/Users/Shared", 0), folder("/Users/alice", 501)], 501), "/Users/alice");
  assert.equal(ownedHome([folder("/Users/a", 501), folder("/Users/b", 501)], 501), null);
  assert.equal(ownedHome([{ path: "/Users/link", uid: 501, isDirectory: false }], 501), null);
  assert.equal(ownedHome([], 501), null);
});

Deno.test("accountHome: /etc/passwd on Linux; on macOS the owned folder of /Users when passwd lacks the uid; none on Windows", async () => {
  await using ws = await tempWorkspace({ "passwd": PASSWD, "Users/alice/": "", "Users/Shared/": "" });
  const files = { passwd: ws.join("passwd"), users: ws.join("Users") };
  assert.equal(await accountHome("linux", 1000, files), "/home/alice");
  assert.equal(await accountHome("linux", 501, files), null);
  assert.equal(await accountHome("darwin", 0, files), "/root");
  assert.equal(await accountHome("windows", 0, files), null);
  assert.equal(await accountHome("linux", 0, { passwd: ws.join("absent"), users: ws.join("Users") }), null);
  if (!isWindows && Deno.uid() === 0) {
    await Deno.chown(ws.join("Users", "alice"), 501, 20);
    assert.equal(await accountHome("darwin", 501, files), ws.join("Users", "alice"));
  }
});
