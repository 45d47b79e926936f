import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import { ToolError } from "../../../lib/mcp/errors.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { isWindows, platform } from "../../../lib/platform/mod.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

const FS_ROOT = isWindows ? "C:\\" : "/";
const SECRET = isWindows ? "C:\\Windows\\win.ini" : "/etc/passwd";

/** Expects `ws` to refuse `path` for having no usable root, naming `root` and `reason`. */
async function noRoot(ws: Workspace, path: string, root: string, reason: string): Promise<void> {
  await assert.rejects(ws.resolveInside(path), (error: unknown) => {
    assert.ok(error instanceof ToolError, String(error));
    assert.equal(error.code, "permission_denied", error.message);
    assert.equal(
      error.message,
      `Cannot use "${path}": the workspace root "${root.replaceAll("\\", "/")}" ${reason}; ` +
        "open a project folder or set MCP_WORKSPACE",
    );
    return true;
  });
}

Deno.test("MCP_WORKSPACE=/ is refused: no root, a clear permission_denied, no fallback to the cwd", async () => {
  await using tmp = await tempWorkspace({ "project/a.txt": "" });
  const ws = new Workspace({ cwd: tmp.join("project"), workspaceEnv: FS_ROOT });
  assert.deepEqual(ws.roots, []);
  await noRoot(ws, SECRET, FS_ROOT, "is the whole file system");
  await noRoot(ws, "a.txt", FS_ROOT, "is the whole file system");
  assert.throws(() => ws.primary, /^ToolError: Cannot use the workspace: the workspace root/);
});

Deno.test("MCP_WORKSPACE=$HOME, or a folder holding home, is refused; a project under home works", async () => {
  await using tmp = await tempWorkspace({ "home/me/project/a.txt": "" });
  const homes = [tmp.join("home", "me")];
  const at = (root: string) => new Workspace({ cwd: tmp.path, workspaceEnv: root, homes });
  await noRoot(at(tmp.join("home", "me")), "project/a.txt", tmp.join("home", "me"), "is your home folder");
  await noRoot(at(tmp.join("home")), "me/project/a.txt", tmp.join("home"), "holds your home folder");
  assert.equal(
    await at(tmp.join("home", "me", "project")).resolveInside("a.txt"),
    tmp.join("home/me/project/a.txt"),
  );
});

Deno.test({
  name: "MCP_WORKSPACE set to the real $HOME is refused by default",
  ignore: !Deno.env.get("HOME"),
  async fn() {
    const home = Deno.env.get("HOME")!;
    const ws = new Workspace({ cwd: home, workspaceEnv: home });
    assert.deepEqual(ws.roots, []);
    await assert.rejects(ws.resolveInside(".ssh/id_ed25519"), /is your home folder; open a project folder/);
  },
});

Deno.test("a refused root in a list is dropped; the others stay, the first kept one is primary", async () => {
  await using tmp = await tempWorkspace({ "project/a.txt": "" });
  const ws = new Workspace({
    cwd: tmp.path,
    workspaceEnv: [FS_ROOT, tmp.join("project")].join(platform.listSeparator),
  });
  assert.deepEqual(ws.roots, [tmp.join("project")]);
  assert.equal(await ws.resolveInside("a.txt"), tmp.join("project", "a.txt"));
  await assert.rejects(ws.resolveInside(SECRET), /outside_workspace|resolves outside the workspace/);
});

Deno.test("a cwd of / is refused as a fallback root", async () => {
  const ws = new Workspace({ cwd: FS_ROOT });
  assert.equal(ws.source, "cwd");
  await noRoot(ws, SECRET, FS_ROOT, "is the whole file system");
});

Deno.test("MCP_ALLOW_DIRS=/ is dropped: paths outside the project stay outside", async () => {
  await using tmp = await tempWorkspace({ "project/a.txt": "" });
  const ws = new Workspace({ cwd: tmp.join("project"), allowDirsEnv: FS_ROOT });
  assert.deepEqual(ws.allowDirs, []);
  await assert.rejects(ws.resolveInside(SECRET), (error: unknown) => {
    assert.ok(error instanceof ToolError);
    assert.equal(error.code, "outside_workspace");
    return true;
  });
});

Deno.test("client roots: file:/// alone leaves no root (not the cwd); with a project root, the project stays", async () => {
  await using tmp = await tempWorkspace({ "project/a.txt": "", "cwd/b.txt": "" });
  const alone = new Workspace({ cwd: tmp.join("cwd") });
  await alone.adoptClientRoots(() => Promise.resolve([pathToFileURL(FS_ROOT).href]));
  assert.deepEqual(alone.roots, []);
  assert.equal(alone.source, "roots");
  await noRoot(alone, SECRET, FS_ROOT, "is the whole file system");
  await noRoot(alone, "b.txt", FS_ROOT, "is the whole file system");

  const mixed = new Workspace({ cwd: tmp.join("cwd") });
  await mixed.adoptClientRoots(() =>
    Promise.resolve([pathToFileURL(FS_ROOT).href, pathToFileURL(tmp.join("project")).href])
  );
  assert.deepEqual(mixed.roots, [tmp.join("project")]);
  assert.equal(await mixed.resolveInside("a.txt"), tmp.join("project", "a.txt"));
  // Fixing the roots later (roots/list_changed) makes the workspace usable again.
  await alone.adoptClientRoots(() => Promise.resolve([pathToFileURL(tmp.join("project")).href]));
  assert.equal(await alone.resolveInside("a.txt"), tmp.join("project", "a.txt"));
});
