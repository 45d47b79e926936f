import assert from "node:assert/strict";
import { FileLocks } from "../../../lib/fs/file_lock.ts";
import { writeFile } from "../../../lib/fs/file_write.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

const TEMP_MODULE = new URL("../../../lib/fs/temp_files.ts", import.meta.url).href;
const DIR_MODULE = new URL("../../../lib/fs/lock_dir.ts", import.meta.url).href;

/** A separate process in the middle of a rename write: its temp file exists and its writer lock is held. */
async function spawnWriter(locks: string, target: string) {
  const code = `import { createTemp } from ${JSON.stringify(TEMP_MODULE)};
import { prepareLockDir } from ${JSON.stringify(DIR_MODULE)};
const temp = await createTemp(${JSON.stringify(target)}, await prepareLockDir(${
    JSON.stringify(locks)
  }, "t"), 0o600);
await temp.file.write(new TextEncoder().encode("partial"));
console.log(temp.path);
await Deno.stdin.read(new Uint8Array(1));`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", "--quiet", code],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`The writer exited early: ${seen}`);
    seen += value;
  }
  return {
    temp: seen.trim(),
    async kill() {
      child.kill("SIGKILL");
      await child.status;
      reader.releaseLock();
      await child.stdout.cancel().catch(() => {});
      await child.stdin.close().catch(() => {});
    },
  };
}

async function writeIn(locks: FileLocks, path: string, text: string): Promise<void> {
  await locks.run(
    path,
    () =>
      writeFile(path, new TextEncoder().encode(text), {
        locks,
        action: "Cannot write",
        display: path,
        roots: [],
      }),
  );
}

Deno.test("temp files: a live writer's temp survives other writes in the folder; once it is killed, the next write removes it", async () => {
  await using ws = await tempWorkspace({ "locks/": "", "w/big.txt": "old" });
  await Deno.chmod(ws.join("locks"), 0o700); // A lock folder must be private.
  // One server all along: its first write looked at the folder; later ones learn of dead writers from the
  // lock folder.
  const locks = new FileLocks({ dir: ws.join("locks") });
  const writer = await spawnWriter(ws.join("locks"), ws.join("w", "big.txt"));
  try {
    assert.match(writer.temp, /\/\.big\.txt\.cmcp-[0-9a-f]{12}\.tmp$/);
    await writeIn(locks, ws.join("w", "other.txt"), "x");
    await writeIn(locks, ws.join("w", "big.txt"), "new");
    assert.equal(await Deno.readTextFile(writer.temp), "partial", "the live writer's temp file is kept");
  } finally {
    await writer.kill();
  }
  await writeIn(locks, ws.join("w", "other.txt"), "y");
  await assert.rejects(Deno.stat(writer.temp), Deno.errors.NotFound);
  assert.equal(await Deno.readTextFile(ws.join("w", "big.txt")), "new");
});

Deno.test("temp files: a temp whose writer lock is gone (a reboot emptied /tmp) is removed; other .tmp files stay", async () => {
  await using ws = await tempWorkspace({
    "locks/": "",
    "w/.a.txt.cmcp-0123456789ab.tmp": "left by a writer before a reboot",
    "w/.a.txt.0123456789ab.tmp": "not ours (or an older version's): kept",
    "w/build.tmp": "the user's",
  });
  await Deno.chmod(ws.join("locks"), 0o700); // A lock folder must be private.
  await writeIn(new FileLocks({ dir: ws.join("locks") }), ws.join("w", "a.txt"), "a");
  const names: string[] = [];
  for await (const entry of Deno.readDir(ws.join("w"))) names.push(entry.name);
  assert.deepEqual(names.sort(), [".a.txt.0123456789ab.tmp", "a.txt", "build.tmp"]);
});

const WRITE_MODULE = new URL("../../../lib/fs/file_write.ts", import.meta.url).href;
const LOCK_MODULE = new URL("../../../lib/fs/file_lock.ts", import.meta.url).href;

Deno.test("temp files: writers in several processes, each cleaning up after dead ones, never take a live writer's lock", async () => {
  await using ws = await tempWorkspace({ "locks/": "", "w/": "" });
  await Deno.chmod(ws.join("locks"), 0o700); // A lock folder must be private.
  const writer = (id: number) => {
    const code = `import { writeFile } from ${JSON.stringify(WRITE_MODULE)};
import { FileLocks } from ${JSON.stringify(LOCK_MODULE)};
const locks = new FileLocks({ dir: ${JSON.stringify(ws.join("locks"))} });
let failed = 0;
await Promise.all([0, 1, 2, 3].map(async (lane) => {
  for (let i = 0; i < 60; i++) {
    const path = ${JSON.stringify(ws.join("w"))} + "/f-${id}-" + lane + "-" + i;
    await locks.run(path, () => writeFile(path, new TextEncoder().encode("x"), { locks, action: "w", display: path, roots: [] }))
      .catch((error) => { failed++; console.error(String(error)); });
  }
}));
console.log(failed);`;
    return new Deno.Command(Deno.execPath(), { args: ["eval", "--quiet", code], stdout: "piped" }).output();
  };
  const results = await Promise.all([0, 1, 2].map(writer));
  const failures = results.map((result) => new TextDecoder().decode(result.stdout).trim());
  assert.deepEqual(failures, ["0", "0", "0"], "every write succeeds");
  const names: string[] = [];
  for await (const entry of Deno.readDir(ws.join("w"))) names.push(entry.name);
  assert.equal(names.length, 3 * 4 * 60);
  assert.deepEqual(names.filter((name) => name.endsWith(".tmp")), []);
});
