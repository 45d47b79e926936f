import assert from "node:assert/strict";
import { FileLocks } from "../../../lib/fs/file_lock.ts";
import { removeFile, writeFile, type WriteFileOptions } from "../../../lib/fs/file_write.ts";
import { isWindows } from "../../../lib/platform/mod.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

async function entries(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

/** writeFile under the path's lock, as every server calls it. */
function write(
  path: string,
  data: Uint8Array,
  options: Partial<WriteFileOptions> = {},
): Promise<string> {
  const locks = options.locks ?? new FileLocks();
  return locks.run(
    path,
    () => writeFile(path, data, { action: "Cannot write", display: path, roots: [], ...options, locks }),
  );
}

Deno.test("writeFile creates a new file with the given bytes and leaves nothing else", async () => {
  await using ws = await tempWorkspace();
  assert.equal(await write(ws.join("new.txt"), bytes("hello\n")), "rename");
  assert.equal(await Deno.readTextFile(ws.join("new.txt")), "hello\n");
  assert.deepEqual(await entries(ws.path), ["new.txt"]);
});

Deno.test("writeFile replaces a file and keeps its permission bits", { ignore: isWindows }, async () => {
  await using ws = await tempWorkspace({ "run.sh": "old" });
  await Deno.chmod(ws.join("run.sh"), 0o740);
  await write(ws.join("run.sh"), bytes("new"));
  assert.equal(await Deno.readTextFile(ws.join("run.sh")), "new");
  assert.equal((await Deno.stat(ws.join("run.sh"))).mode! & 0o777, 0o740);
});

Deno.test("writeFile keeps setuid and setgid (chmod after chown)", { ignore: isWindows }, async () => {
  await using ws = await tempWorkspace({ "tool": "old" });
  await Deno.chmod(ws.join("tool"), 0o6755);
  assert.equal(await write(ws.join("tool"), bytes("new")), "rename");
  assert.equal((await Deno.stat(ws.join("tool"))).mode! & 0o7777, 0o6755);
});

Deno.test("writeFile gives a new file an explicit mode", { ignore: isWindows }, async () => {
  await using ws = await tempWorkspace();
  await write(ws.join("secret"), bytes("s"), { mode: 0o600 });
  assert.equal((await Deno.stat(ws.join("secret"))).mode! & 0o777, 0o600);
});

Deno.test("writeFile refuses a folder, leaving no temp file", async () => {
  await using ws = await tempWorkspace({ "dir/keep.txt": "k" });
  await assert.rejects(write(ws.join("dir"), bytes("x")), /Cannot write: it is a folder/);
  assert.deepEqual(await entries(ws.path), ["dir"]);
  assert.equal(await Deno.readTextFile(ws.join("dir", "keep.txt")), "k");
});

Deno.test("writeFile fails cleanly when the folder does not exist", async () => {
  await using ws = await tempWorkspace();
  await assert.rejects(write(ws.join("missing", "a.txt"), bytes("x")), Deno.errors.NotFound);
  assert.deepEqual(await entries(ws.path), []);
});

Deno.test("writeFile writes large data completely", async () => {
  await using ws = await tempWorkspace();
  const data = new Uint8Array(3 * 1024 * 1024).map((_, i) => i % 251);
  await write(ws.join("big.bin"), data);
  assert.deepEqual(await Deno.readFile(ws.join("big.bin")), data);
});

Deno.test("writeFile stamps the given mtime, by rename and in place", { ignore: isWindows }, async () => {
  await using ws = await tempWorkspace({ "linked.md": "x" });
  await Deno.link(ws.join("linked.md"), ws.join("other.md"));
  const mtime = new Date("2024-05-06T07:08:09Z");
  assert.equal(await write(ws.join("note.md"), bytes("x"), { mtime }), "rename");
  assert.equal((await Deno.stat(ws.join("note.md"))).mtime?.getTime(), mtime.getTime());
  assert.equal(await write(ws.join("linked.md"), bytes("y"), { mtime }), "in_place");
  assert.equal((await Deno.stat(ws.join("other.md"))).mtime?.getTime(), mtime.getTime());
});

Deno.test("writeFile handles names near the 255-byte limit (the temp name stays short enough)", async () => {
  await using ws = await tempWorkspace();
  const name = "é".repeat(120) + ".txt"; // 244 bytes in UTF-8
  await write(ws.join(name), bytes("long"));
  assert.equal(await Deno.readTextFile(ws.join(name)), "long");
  assert.deepEqual(await entries(ws.path), [name]);
});

Deno.test("writeFile writes a hard-linked file in place: the link stays, both names change", {
  ignore: isWindows,
}, async () => {
  await using ws = await tempWorkspace({ "a.txt": "one\n" });
  await Deno.link(ws.join("a.txt"), ws.join("b.txt"));
  assert.equal(await write(ws.join("b.txt"), bytes("two, longer\n")), "in_place");
  assert.equal(await Deno.readTextFile(ws.join("a.txt")), "two, longer\n");
  assert.equal((await Deno.stat(ws.join("a.txt"))).nlink, 2);
  assert.equal(await write(ws.join("a.txt"), bytes("3\n")), "in_place");
  assert.equal(await Deno.readTextFile(ws.join("b.txt")), "3\n");
  assert.deepEqual(await entries(ws.path), ["a.txt", "b.txt"]);
});

Deno.test("writeFile and removeFile refuse a read-only file (permission_denied) and leave it", {
  ignore: isWindows,
}, async () => {
  await using ws = await tempWorkspace({ "ro.txt": "keep\n" });
  await Deno.chmod(ws.join("ro.txt"), 0o444);
  const refused = (error: Error & { code?: string }) =>
    error.code === "permission_denied" &&
    /^Cannot write: the file is read-only \(mode 444\); make it writable first \(chmod u\+w ".*ro\.txt"\)/
      .test(error.message);
  await assert.rejects(write(ws.join("ro.txt"), bytes("x")), refused);
  const locks = new FileLocks();
  const path = ws.join("ro.txt");
  await assert.rejects(
    locks.run(path, () => removeFile(path, { locks, action: "Cannot write", display: path, roots: [] })),
    refused,
  );
  assert.equal(await Deno.readTextFile(ws.join("ro.txt")), "keep\n");
});

Deno.test("writeFile refuses to write without the file's lock", async () => {
  await using ws = await tempWorkspace();
  const locks = new FileLocks();
  await assert.rejects(
    writeFile(ws.join("a.txt"), bytes("x"), { locks, action: "Cannot write", display: "a.txt", roots: [] }),
    /its file lock is not held/,
  );
  assert.deepEqual(await entries(ws.path), []);
});

Deno.test("writeFile and removeFile refuse a protected name of their roots (permission_denied) and leave it", async () => {
  await using ws = await tempWorkspace({ ".git/hooks/": "", ".git/config": "[core]\n" });
  const locks = new FileLocks();
  const rules = { locks, action: "Cannot write", display: "shown", roots: [ws.path] };
  const refused = (error: Error & { code?: string }) =>
    error.code === "permission_denied" &&
    /^Cannot write: "\.git\/(hooks|config)" is protected/.test(error.message);
  const hook = ws.join(".git", "hooks", "pre-commit");
  await assert.rejects(locks.run(hook, () => writeFile(hook, bytes("#!/bin/sh\n"), rules)), refused);
  const config = ws.join(".git", "config");
  await assert.rejects(
    locks.run(config, () => writeFile(config, bytes("[core]\nfsmonitor = x\n"), rules)),
    refused,
  );
  await assert.rejects(locks.run(config, () => removeFile(config, rules)), refused);
  assert.deepEqual(await entries(ws.join(".git", "hooks")), []);
  assert.equal(await Deno.readTextFile(config), "[core]\n");
});
