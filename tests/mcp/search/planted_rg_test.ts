/**
 * F4: another account plants a fake ripgrep under the name a compiled search-mcp extracts its bundled rg to.
 * The compiled path is taken without `deno compile`: an import map points `@vscode/ripgrep` at a
 * non-executable copy of the real rg (like a file of a compiled binary's virtual file system, it cannot be
 * run where it is, so it is extracted). The server runs as root in a private mount namespace with its own
 * /tmp and /etc/passwd (tests/_support/isolated.ts), with no HOME, XDG_CACHE_HOME or USERPROFILE.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { CallToolResult } from "../../../lib/mcp/sdk.ts";
import { bundledPath } from "../../../lib/ripgrep/locate.ts";
import { extractedName } from "../../../lib/ripgrep/extract.ts";
import { sha256Hex } from "../../../lib/fs/sha256.ts";
import { textOf } from "../../_support/connect.ts";
import { canIsolate, hostPath, isolatedRoot, spawnIsolated } from "../../_support/isolated.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

const EMBEDDED = "/tmp/embedded/@vscode/ripgrep-linux-x64/1.18.0/bin/rg";
const MARKER = "/tmp/marker";

/** Makes the isolated root: the workspace, root's home, the embedded copy and the import map naming it. */
async function prepare(root: string): Promise<string> {
  const realRg = (await bundledPath())!;
  await isolatedRoot(root, {
    home: "/tmp/home",
    files: { "work/.git/": "", "work/a.txt": "needle\n", "home/": "", "config/": "" },
  });
  await Deno.chmod(hostPath(root, "/tmp/home"), 0o700);
  await Deno.mkdir(join(hostPath(root, EMBEDDED), ".."), { recursive: true });
  await Deno.copyFile(realRg, hostPath(root, EMBEDDED));
  await Deno.chmod(hostPath(root, EMBEDDED), 0o644);
  await Deno.writeTextFile(
    hostPath(root, "/tmp/config/stub.ts"),
    `export const rgPath = ${JSON.stringify(EMBEDDED)};\n`,
  );
  const { imports } = JSON.parse(await Deno.readTextFile(new URL("../../../deno.json", import.meta.url)));
  await Deno.writeTextFile(
    hostPath(root, "/tmp/config/deno.json"),
    JSON.stringify({ imports: { ...imports, "@vscode/ripgrep": "./stub.ts" } }),
  );
  // The name the copy gets is predictable: the package version and the hash of the embedded bytes.
  return extractedName(EMBEDDED, await sha256Hex(await Deno.readFile(realRg)));
}

/** Plants, as nobody, a folder open to all holding a fake rg that leaves the marker, then runs the real one. */
async function plant(root: string, folder: string, name: string): Promise<void> {
  const realRg = (await bundledPath())!;
  await Deno.mkdir(hostPath(root, folder), { recursive: true });
  const file = hostPath(root, `${folder}/${name}`);
  await Deno.writeTextFile(file, `#!/bin/sh\nid > ${MARKER}\nexec "${realRg}" "$@"\n`, { mode: 0o755 });
  for (const path of [file, hostPath(root, folder)]) {
    await Deno.chmod(path, path === file ? 0o755 : 0o777);
    await Deno.chown(path, 65534, 65534);
  }
}

async function searchWorks(root: string, env: Record<string, string>): Promise<void> {
  await using server = await spawnIsolated("search", {
    root,
    cwd: "/tmp/work",
    env,
    denoFlags: ["--no-lock", "--cached-only", "--config", "/tmp/config/deno.json"],
  });
  const result = await server.client.callTool({ name: "search_grep", arguments: { pattern: "needle" } });
  assert.equal(textOf(result as CallToolResult), "a.txt\n1:needle\n\n1 matching line in 1 file");
}

Deno.test({
  name:
    "stdio: as root without HOME, a compiled search-mcp never runs the rg nobody planted in /tmp/continue-mcp",
  ignore: !canIsolate,
  async fn() {
    await using ws = await tempWorkspace();
    const name = await prepare(ws.path);
    // Where the old code put the copy without HOME: the shared temp folder.
    await plant(ws.path, "/tmp/continue-mcp", name);
    await plant(ws.path, "/tmp/continue-mcp/ripgrep", name);
    await searchWorks(ws.path, {});
    await assert.rejects(Deno.lstat(hostPath(ws.path, MARKER)), Deno.errors.NotFound, "the planted rg ran");
    // The copy went to the home /etc/passwd gives for our uid, private.
    const copy = await Deno.lstat(hostPath(ws.path, `/tmp/home/.cache/continue-mcp/ripgrep/${name}`));
    assert.equal(copy.mode! & 0o777, 0o700);
  },
});

Deno.test({
  name: "stdio: as root, a compiled search-mcp never runs an rg planted in a cache folder open to all (0777)",
  ignore: !canIsolate,
  async fn() {
    await using ws = await tempWorkspace();
    const name = await prepare(ws.path);
    await plant(ws.path, "/tmp/xdg/continue-mcp", name);
    await plant(ws.path, "/tmp/xdg/continue-mcp/ripgrep", name);
    await searchWorks(ws.path, { XDG_CACHE_HOME: "/tmp/xdg", HOME: "/tmp/xdg" });
    await assert.rejects(Deno.lstat(hostPath(ws.path, MARKER)), Deno.errors.NotFound, "the planted rg ran");
  },
});
