/**
 * The copy of the bundled ripgrep a compiled server runs: never a file someone else could have put under its
 * predictable name, never the embedded path itself (in a compiled server it lies in the shared temp folder).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { bundledPath, ripgrepFromBundle } from "../../../lib/ripgrep/locate.ts";
import { extractedName } from "../../../lib/ripgrep/extract.ts";
import { sha256Hex } from "../../../lib/fs/sha256.ts";
import { isWindows } from "../../../lib/platform/mod.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

/** The path an embedded rg has: its version is read from it. */
const EMBEDDED = join("node_modules", "@vscode", "ripgrep-linux-x64", "1.18.0", "bin", "rg");

/** A script that leaves `marker` when run (as `$0` matching `when`), then runs the real ripgrep. */
function planted(marker: string, realRg: string, when = "*"): string {
  return `#!/bin/sh\ncase "$0" in ${when}) id > "${marker}";; esac\nexec "${realRg}" "$@"\n`;
}

Deno.test({
  name: "a compiled server never runs the embedded path, where another user can put a file; its copy works",
  ignore: isWindows,
  async fn() {
    const realRg = (await bundledPath())!;
    await using ws = await tempWorkspace({ "cache/": "" });
    const marker = ws.join("marker");
    // The same bytes are "embedded" and at the real path: run from there (its own name), they leave a mark.
    const embedded = ws.join("deno-compile-search-mcp", EMBEDDED);
    await Deno.mkdir(join(embedded, ".."), { recursive: true });
    await Deno.writeTextFile(embedded, planted(marker, realRg, "*/bin/rg"), { mode: 0o755 });
    const found = await ripgrepFromBundle(embedded, {
      standalone: true,
      env: { XDG_CACHE_HOME: ws.join("cache") },
    });
    assert.equal(found?.version, "15.0.0");
    assert.match(found!.path, /continue-mcp\/ripgrep\/rg-1\.18\.0-[0-9a-f]{12}$/);
    await assert.rejects(Deno.lstat(marker), Deno.errors.NotFound, "the embedded path was run");
  },
});

Deno.test({
  name: "a copy under the extracted name that is not the embedded rg, or not private, or a link, is replaced",
  ignore: isWindows,
  async fn() {
    const realRg = (await bundledPath())!;
    await using ws = await tempWorkspace({ "cache/continue-mcp/ripgrep/": "", "elsewhere/": "" });
    await Deno.chmod(ws.join("cache", "continue-mcp", "ripgrep"), 0o700);
    const embedded = ws.join("embedded", EMBEDDED);
    await Deno.mkdir(join(embedded, ".."), { recursive: true });
    await Deno.copyFile(realRg, embedded);
    await Deno.chmod(embedded, 0o644); // Not executable: like a file of a compiled binary's virtual file system.
    const name = extractedName(embedded, await sha256Hex(await Deno.readFile(embedded)));
    const target = ws.join("cache", "continue-mcp", "ripgrep", name);
    const marker = ws.join("marker");
    const env = { XDG_CACHE_HOME: ws.join("cache") };
    // Our own private file with other bytes; one open to others; a link to a planted script; another user's.
    const plants: Array<() => Promise<void>> = [
      () => Deno.writeTextFile(target, planted(marker, realRg), { mode: 0o700 }),
      async () => {
        await Deno.copyFile(realRg, target);
        await Deno.chmod(target, 0o777);
      },
      async () => {
        await Deno.writeTextFile(ws.join("elsewhere", "rg"), planted(marker, realRg), { mode: 0o755 });
        await Deno.symlink(ws.join("elsewhere", "rg"), target);
      },
    ];
    if (Deno.uid() === 0) {
      // The real rg, but another user's (only root can give a file away).
      plants.push(async () => {
        await Deno.copyFile(realRg, target);
        await Deno.chmod(target, 0o700);
        await Deno.chown(target, 65534, 65534);
      });
    }
    for (const plant of plants) {
      await Deno.remove(target).catch(() => {});
      await plant();
      const found = await ripgrepFromBundle(embedded, { standalone: false, env });
      assert.equal(found?.path, target);
      const info = await Deno.lstat(target);
      assert.ok(info.isFile && (info.mode! & 0o777) === 0o700);
      assert.equal(
        await sha256Hex(await Deno.readFile(target)),
        await sha256Hex(await Deno.readFile(realRg)),
      );
      await assert.rejects(Deno.lstat(marker), Deno.errors.NotFound, "a planted copy was run");
    }
  },
});
