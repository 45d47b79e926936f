/**
 * A client that declares the whole file system (`file:///`) as its root gets nothing from any server that
 * takes paths: every one answers permission_denied naming the root, and none falls back to a broader one.
 */
import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import { connect, textOf } from "./_support/connect.ts";
import { tempWorkspace } from "./_support/workspace.ts";
import { spawnStdio } from "./_support/stdio.ts";
import { waitFor } from "./_support/poll.ts";
import type { McpServerHandle } from "../lib/mcp/server.ts";
import { requireRipgrep } from "../lib/ripgrep/locate.ts";
import { isWindows } from "../lib/platform/mod.ts";
import { Workspace } from "../lib/workspace/workspace.ts";
import { createServer as createFs } from "../mcp/fs/server.ts";
import { createServer as createSearch } from "../mcp/search/server.ts";
import { createServer as createEdit } from "../mcp/edit/server.ts";
import { createServer as createShell } from "../mcp/shell/server.ts";
import { createServer as createNotes } from "../mcp/notes/server.ts";
import { createServer as createSql } from "../mcp/sql/server.ts";

const FS_ROOT_URL = pathToFileURL(isWindows ? "C:\\" : "/").href;
const SECRET = isWindows ? "C:/Windows/win.ini" : "/etc/passwd";
const WHOLE =
  /^Error \[permission_denied\]: Cannot use[^:]*: the workspace root "(\/|C:\/)" is (the whole file system|a whole drive); open a project folder or set MCP_WORKSPACE$/;

type Build = (workspace: Workspace) => McpServerHandle;

/** Each server that takes paths, a call that names the secret, and one that names a project file. */
const SERVERS: [string, Build, [string, Record<string, unknown>][]][] = [
  ["fs", (workspace) => createFs({ workspace }), [
    ["fs_read", { path: SECRET }],
    ["fs_list", { path: "." }],
    ["fs_stat", { path: "a.txt" }],
  ]],
  ["search", (workspace) => createSearch({ workspace, ripgrep: requireRipgrep, timeoutMs: 30_000 }), [
    ["search_grep", { pattern: "root", path: SECRET }],
    ["search_grep", { pattern: "root" }],
    ["search_glob", { pattern: "*" }],
  ]],
  ["edit", (workspace) => createEdit({ workspace }), [
    ["edit_write", { path: SECRET, content: "x" }],
    ["edit_file", { path: "a.txt", edits: [{ old_text: "a", new_text: "b" }] }],
  ]],
  ["shell", (workspace) => createShell({ workspace, serverEnv: Deno.env.toObject(), graceMs: 500 }), [
    ["shell_run", { command: "echo hi" }],
  ]],
  ["notes", (workspace) => createNotes({ workspace, homes: [] }), [
    ["notes_list", {}],
    ["notes_write", { slug: "x", body: "y" }],
  ]],
  ["sql", (workspace) => createSql({ workspace, env: Deno.env.toObject(), timeoutMs: 60_000 }), [
    ["sql_lint", { path: SECRET }],
  ]],
];

for (const [name, build, calls] of SERVERS) {
  Deno.test(`${name}: a client whose only root is file:/// is refused with the reason, not given / or the cwd`, async () => {
    await using ws = await tempWorkspace({ "a.txt": "a\n" });
    await using client = await connect(build(new Workspace({ cwd: ws.path })), { roots: [FS_ROOT_URL] });
    for (const [tool, args] of calls) {
      const result = await client.call(tool, args);
      assert.equal(result.isError, true, `${tool}: ${textOf(result)}`);
      assert.match(textOf(result), WHOLE, `${tool}: ${textOf(result)}`);
    }
    assert.equal(await Deno.readTextFile(ws.join("a.txt")), "a\n");
  });
}

Deno.test("fs: with file:/// and a project root, the project root is kept and /etc/passwd stays outside", async () => {
  await using ws = await tempWorkspace({ "a.txt": "project file\n" });
  await using client = await connect(createFs({ workspace: new Workspace({ cwd: ws.path }) }), {
    roots: [FS_ROOT_URL, pathToFileURL(ws.path).href],
  });
  assert.match(await client.text("fs_read", { path: "a.txt" }), /project file/);
  assert.match(await client.text("fs_read", { path: SECRET }), /^Error \[outside_workspace\]/);
});

Deno.test({
  name: "stdio: fs-mcp with MCP_WORKSPACE=/ logs the refused root and refuses fs_read /etc/passwd",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace();
    await using server = await spawnStdio("fs", { cwd: ws.path, env: { MCP_WORKSPACE: "/" } });
    let logged = "";
    server.transport.stderr!.on("data", (chunk: Uint8Array) => logged += new TextDecoder().decode(chunk));
    const result = await server.client.callTool({ name: "fs_read", arguments: { path: "/etc/passwd" } });
    assert.match(textOf(result as never), WHOLE);
    const line = /workspace: ignoring the folder "\/" from MCP_WORKSPACE: it is the whole file system/;
    await waitFor("the log line", () => line.test(logged));
  },
});
