import assert from "node:assert/strict";
import { join } from "node:path";
import { BESIDE_NAME, bundledPath, executableFolders, ripgrepBeside } from "../../../lib/ripgrep/locate.ts";
import { envCacheFolder, extractedName } from "../../../lib/ripgrep/extract.ts";
import { sha256Hex } from "../../../lib/fs/sha256.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { isWindows } from "../../../lib/platform/mod.ts";

Deno.test({
  name: "executableFolders follows a symlink on PATH to the folder of the real executable",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace({
      "release/bin/fs-mcp": "",
      "links/fs-mcp": { symlink: "../release/bin/fs-mcp" },
    });
    assert.deepEqual(await executableFolders(ws.join("links", "fs-mcp")), [
      ws.join("release", "bin"),
      ws.join("links"),
    ]);
    assert.deepEqual(await executableFolders(ws.join("release", "bin", "fs-mcp")), [
      ws.join("release", "bin"),
    ]);
  },
});

Deno.test({
  name: "a ripgrep beside the real executable is found when the server is invoked through a symlink",
  ignore: isWindows,
  async fn() {
    const rg = await bundledPath();
    assert.ok(rg, "npm:@vscode/ripgrep has a binary for this platform");
    await using ws = await tempWorkspace({
      "links/fs-mcp": { symlink: "../release/bin/fs-mcp" },
      "release/bin/fs-mcp": "",
    });
    await Deno.copyFile(rg, ws.join("release", "bin", BESIDE_NAME));
    await Deno.chmod(ws.join("release", "bin", BESIDE_NAME), 0o755);
    const found = [];
    for (const folder of await executableFolders(ws.join("links", "fs-mcp"))) {
      const beside = await ripgrepBeside(folder);
      if (beside) found.push(beside);
    }
    assert.equal(found.length, 1);
    assert.equal(found[0].path, ws.join("release", "bin", BESIDE_NAME));
    assert.match(found[0].version, /^\d+\.\d+/);
  },
});

Deno.test("extracted copies are keyed by package version and content hash", async () => {
  const path = join("/x", "npm", "@vscode", "ripgrep-linux-x64", "1.18.0", "bin", "rg");
  const a = extractedName(path, await sha256Hex(new TextEncoder().encode("one build")));
  const b = extractedName(path, await sha256Hex(new TextEncoder().encode("another build")));
  assert.match(a, /^rg-1\.18\.0-[0-9a-f]{12}(\.exe)?$/);
  assert.notEqual(a, b);
});

Deno.test("the extraction cache is a folder of its own under the user's cache folder, never the cwd or /tmp", () => {
  assert.equal(envCacheFolder({ XDG_CACHE_HOME: "/c" }), join("/c", "continue-mcp", "ripgrep"));
  assert.equal(envCacheFolder({ HOME: "/h" }), join("/h", ".cache", "continue-mcp", "ripgrep"));
  assert.equal(envCacheFolder({ XDG_CACHE_HOME: "relative" }), null);
  assert.equal(envCacheFolder({}), null);
});
