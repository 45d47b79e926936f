/**
 * Placeholders for missing protected names: made while a job needs them, removed after, never from under
 * another server's job (removing a mount point detaches it in every other namespace), never with content.
 */
import assert from "node:assert/strict";
import { Placeholders } from "../../../lib/sandbox/placeholders.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { waitFor } from "../../mcp/shell/processes.ts";
import { isWindows } from "../../../lib/platform/mod.ts";

const posixOnly = { ignore: isWindows };

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test({
  name: "placeholders: folders, and inside .git the files git can read; removed after the last job",
  ...posixOnly,
  fn: async () => {
    await using ws = await tempWorkspace({ ".git/": "" });
    const places = new Placeholders({ lockDir: ws.join("locks"), lingerMs: 0 });
    const paths = [ws.join(".vscode"), ws.join(".git", "hooks"), ws.join(".git", "commondir")];
    const release = await places.hold(ws.path, paths);
    assert.ok((await Deno.stat(paths[0])).isDirectory);
    assert.ok((await Deno.stat(paths[1])).isDirectory);
    // git reads a `commondir` of "." as its own folder: a repository with one works as before.
    assert.equal(await Deno.readTextFile(paths[2]), ".\n");
    await release();
    await waitFor("the placeholders to go", () => Promise.resolve(!paths.some(exists)), 5000);
    await places.close();
  },
});

Deno.test({
  name: "placeholders: another server's job keeps them; one with content is left to its owner",
  ...posixOnly,
  fn: async () => {
    await using ws = await tempWorkspace();
    // Two servers: separate lock files opened, as two processes would.
    const first = new Placeholders({ lockDir: ws.join("locks"), lingerMs: 0 });
    const second = new Placeholders({ lockDir: ws.join("locks"), lingerMs: 0 });
    const vscode = ws.join(".vscode");
    const idea = ws.join(".idea");
    const releaseFirst = await first.hold(ws.path, [vscode, idea]);
    const releaseSecond = await second.hold(ws.path, [vscode, idea]);
    await releaseFirst();
    await first.close(); // flushes the lingering release
    assert.ok(exists(vscode) && exists(idea), "removed while the other server's job still had it mounted");
    await Deno.writeTextFile(`${idea}/workspace.xml`, "<project/>");
    await releaseSecond();
    await second.close();
    assert.ok(!exists(vscode));
    assert.equal(await Deno.readTextFile(`${idea}/workspace.xml`), "<project/>");
  },
});

Deno.test({
  name: "placeholders: those of a killed server are swept when nobody holds them",
  ...posixOnly,
  fn: async () => {
    await using ws = await tempWorkspace();
    const module = new URL("../../../lib/sandbox/placeholders.ts", import.meta.url).href;
    const vscode = ws.join(".vscode");
    const script = `const { Placeholders } = await import(${JSON.stringify(module)});
      await new Placeholders({ lockDir: ${JSON.stringify(ws.join("locks"))} }).hold(${
      JSON.stringify(ws.path)
    },
        [${JSON.stringify(vscode)}]);
      console.log("held"); setInterval(() => {}, 60_000);`;
    const child = new Deno.Command(Deno.execPath(), {
      args: ["eval", "--quiet", script],
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    assert.match((await reader.read()).value ?? "", /held/);
    const places = new Placeholders({ lockDir: ws.join("locks"), lingerMs: 0 });
    await places.sweep(ws.path);
    assert.ok(exists(vscode), "swept while its server lived");
    child.kill("SIGKILL");
    await child.status;
    // The pipe through the decoder holds the stream: cancel through the reader.
    await reader.cancel();
    await places.sweep(ws.path);
    assert.ok(!exists(vscode));
    await places.close();
  },
});

/** The placeholder lock files in `folder`. */
async function lockFiles(folder: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(folder))).map((entry) => entry.name)
    .filter((name) => name.startsWith("sandbox-")).sort();
}

Deno.test({
  name: "placeholders: a closing server removes the lock files nobody uses (they do not pile up)",
  ...posixOnly,
  fn: async () => {
    await using ws = await tempWorkspace();
    const locks = ws.join("locks");
    for (const name of ["a", "b", "c"]) {
      await Deno.mkdir(ws.join(name));
      const places = new Placeholders({ lockDir: locks, lingerMs: 0 });
      const release = await places.hold(ws.join(name), [ws.join(name, ".vscode")]);
      await release();
      await places.close();
    }
    assert.deepEqual(await lockFiles(locks), []);
  },
});

Deno.test({
  name: "placeholders: lock files removed by one server are opened anew by another that still had them open",
  ...posixOnly,
  fn: async () => {
    await using ws = await tempWorkspace();
    const locks = ws.join("locks");
    const vscode = ws.join(".vscode");
    // Both open the folder's lock files; the first closes and removes them while the second is idle.
    const first = new Placeholders({ lockDir: locks, lingerMs: 0 });
    const second = new Placeholders({ lockDir: locks, lingerMs: 0 });
    await second.sweep(ws.path);
    await (await first.hold(ws.path, [vscode]))();
    await first.close();
    assert.deepEqual(await lockFiles(locks), []);
    // The second's job must lock the files a third server sees, or the third would remove its placeholder.
    const releaseSecond = await second.hold(ws.path, [vscode]);
    assert.equal((await lockFiles(locks)).length, 2);
    const third = new Placeholders({ lockDir: locks, lingerMs: 0 });
    await (await third.hold(ws.path, [vscode]))();
    await third.close();
    assert.ok(exists(vscode), "removed from under the second server's job");
    assert.equal((await lockFiles(locks)).length, 2, "removed while the second server's job used them");
    await releaseSecond();
    await second.close();
    assert.ok(!exists(vscode));
    assert.deepEqual(await lockFiles(locks), []);
  },
});

Deno.test({
  name: "placeholders: the lock files and placeholders of a killed server go with the next server's sweep",
  ...posixOnly,
  fn: async () => {
    await using ws = await tempWorkspace();
    const locks = ws.join("locks");
    const vscode = ws.join(".vscode");
    // A server killed while its job ran: it never released nor closed.
    const module = new URL("../../../lib/sandbox/placeholders.ts", import.meta.url).href;
    const script = `import { Placeholders } from ${JSON.stringify(module)};\n` +
      `await new Placeholders({ lockDir: ${JSON.stringify(locks)} }).hold(${JSON.stringify(ws.path)}, ` +
      `[${JSON.stringify(vscode)}]);\nconsole.log("held");\nsetInterval(() => {}, 60_000);`;
    const child = new Deno.Command(Deno.execPath(), {
      args: ["eval", script],
      stdout: "piped",
      stderr: "inherit",
    })
      .spawn();
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    assert.match((await reader.read()).value ?? "", /held/);
    const sweeper = new Placeholders({ lockDir: locks, lingerMs: 0 });
    assert.equal(await sweeper.sweepLockFiles(), 0, "swept while the server's job ran");
    assert.ok(exists(vscode));
    child.kill("SIGKILL");
    await child.status;
    await reader.cancel();
    assert.equal((await lockFiles(locks)).length, 2);
    assert.equal(await sweeper.sweepLockFiles(), 1);
    assert.deepEqual(await lockFiles(locks), []);
    assert.ok(!exists(vscode), "the killed server's placeholder stayed");
    await sweeper.close();
  },
});
