import assert from "node:assert/strict";
import { atomicWrite } from "../../../lib/fs/atomic_write.ts";
import { isWindows } from "../../../lib/platform/mod.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

async function entries(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

Deno.test("atomicWrite creates a new file with the given bytes and leaves nothing else", async () => {
  await using ws = await tempWorkspace();
  await atomicWrite(ws.join("new.txt"), bytes("hello\n"));
  assert.equal(await Deno.readTextFile(ws.join("new.txt")), "hello\n");
  assert.deepEqual(await entries(ws.path), ["new.txt"]);
});

Deno.test("atomicWrite replaces a file and keeps its permission bits", { ignore: isWindows }, async () => {
  await using ws = await tempWorkspace({ "run.sh": "old" });
  await Deno.chmod(ws.join("run.sh"), 0o740);
  await atomicWrite(ws.join("run.sh"), bytes("new"));
  assert.equal(await Deno.readTextFile(ws.join("run.sh")), "new");
  assert.equal((await Deno.stat(ws.join("run.sh"))).mode! & 0o777, 0o740);
});

Deno.test("atomicWrite applies an explicit mode", { ignore: isWindows }, async () => {
  await using ws = await tempWorkspace();
  await atomicWrite(ws.join("secret"), bytes("s"), { mode: 0o600 });
  assert.equal((await Deno.stat(ws.join("secret"))).mode! & 0o777, 0o600);
});

Deno.test("atomicWrite removes its temp file when the rename fails, and the target is untouched", async () => {
  await using ws = await tempWorkspace({ "dir/keep.txt": "k" });
  await assert.rejects(atomicWrite(ws.join("dir"), bytes("x")));
  assert.deepEqual(await entries(ws.path), ["dir"]);
  assert.equal(await Deno.readTextFile(ws.join("dir", "keep.txt")), "k");
});

Deno.test("atomicWrite fails cleanly when the folder does not exist", async () => {
  await using ws = await tempWorkspace();
  await assert.rejects(atomicWrite(ws.join("missing", "a.txt"), bytes("x")), Deno.errors.NotFound);
  assert.deepEqual(await entries(ws.path), []);
});

Deno.test("atomicWrite writes large data completely", async () => {
  await using ws = await tempWorkspace();
  const data = new Uint8Array(3 * 1024 * 1024).map((_, i) => i % 251);
  await atomicWrite(ws.join("big.bin"), data);
  assert.deepEqual(await Deno.readFile(ws.join("big.bin")), data);
});

Deno.test("atomicWrite stamps the given mtime on the result", async () => {
  await using ws = await tempWorkspace();
  const mtime = new Date("2024-05-06T07:08:09Z");
  await atomicWrite(ws.join("note.md"), bytes("x"), { mtime });
  assert.equal((await Deno.stat(ws.join("note.md"))).mtime?.getTime(), mtime.getTime());
});

Deno.test("atomicWrite handles names near the 255-byte limit (the temp name stays short enough)", async () => {
  await using ws = await tempWorkspace();
  const name = "é".repeat(120) + ".txt"; // 244 bytes in UTF-8
  await atomicWrite(ws.join(name), bytes("long"));
  assert.equal(await Deno.readTextFile(ws.join(name)), "long");
  assert.deepEqual(await entries(ws.path), [name]);
});
