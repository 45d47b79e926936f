/**
 * Another account on the machine attacks edit-mcp's lock folder: as root, a process of `nobody` squats the
 * folder our server's environment would name, holds its locks and plants symlinks in it.
 */
import assert from "node:assert/strict";
import type { CallToolResult } from "../../../lib/mcp/sdk.ts";
import { textOf } from "../../_support/connect.ts";
import { spawnStdio } from "../../_support/stdio.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { isWindows } from "../../../lib/platform/mod.ts";

const asRoot = !isWindows && Deno.uid() === 0;

/** Runs `script` (deno eval) as the user nobody; resolves once it printed "ready". */
async function asNobody(script: string, denoDir: string) {
  // setpriv (util-linux, in /usr/bin) rather than runuser, which lives in /usr/sbin, off a plain user's PATH.
  const child = new Deno.Command("setpriv", {
    args: ["--reuid=65534", "--regid=65534", "--clear-groups", Deno.execPath(), "eval", "--quiet", script],
    env: { DENO_DIR: denoDir, HOME: denoDir },
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("ready")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`The nobody process exited early: ${seen}`);
    seen += value;
  }
  return {
    async [Symbol.asyncDispose]() {
      await child.stdin.close().catch(() => {});
      await child.status;
      reader.releaseLock();
      await child.stdout.cancel().catch(() => {});
    },
  };
}

Deno.test({
  name:
    "stdio: as root, nobody's squatted lock folder (named after our USER/TMPDIR) neither blocks nor redirects us",
  ignore: !asRoot,
  async fn() {
    await using ws = await tempWorkspace({ "a.txt": "old\n", "shared-tmp/": "", "deno-dir/": "" });
    // A shared temp folder like /tmp: everyone may create entries, nobody may remove another's.
    await Deno.chmod(ws.path, 0o755);
    await Deno.chmod(ws.join("shared-tmp"), 0o1777);
    await Deno.chown(ws.join("deno-dir"), 65534, 65534);
    const squat = ws.join("shared-tmp", "continue-mcp-locks-root");
    const planted = ws.join("planted-by-nobody");
    // nobody creates the folder first, holds every lock file of it, and makes the missing ones symlinks.
    const script = `
await Deno.mkdir(${JSON.stringify(squat)}, { mode: 0o777 });
await Deno.chmod(${JSON.stringify(squat)}, 0o777);
const held = [];
for (let i = 0; i < 256; i++) {
  const name = ${JSON.stringify(squat)} + "/" + i.toString(16).padStart(2, "0") + ".lock";
  if (i % 2) { await Deno.symlink(${JSON.stringify(planted)} + "-" + i, name); continue; }
  const file = await Deno.open(name, { read: true, write: true, create: true });
  await file.lock(true);
  held.push(file);
}
console.log("ready");
await Deno.stdin.read(new Uint8Array(1));`;
    await using _nobody = await asNobody(script, ws.join("deno-dir"));
    await using server = await spawnStdio("edit", {
      cwd: ws.path,
      env: { USER: "root", TMPDIR: ws.join("shared-tmp") },
    });
    const result = await server.client.callTool({
      name: "edit_file",
      arguments: { path: "a.txt", edits: [{ old_text: "old", new_text: "new" }] },
    }) as CallToolResult;
    assert.equal(result.isError, undefined, textOf(result));
    assert.equal(await Deno.readTextFile(ws.join("a.txt")), "new\n");
    const created = [];
    for await (const entry of Deno.readDir(ws.path)) {
      if (entry.name.startsWith("planted-by-nobody")) created.push(entry.name);
    }
    assert.deepEqual(created, [], "our server created files where nobody's symlinks point");
  },
});
