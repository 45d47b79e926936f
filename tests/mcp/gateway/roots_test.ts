/**
 * Roots for a client that has none (issue 23, item 13): a downstream server's roots/list gets the gateway's
 * workspace (MCP_WORKSPACE, else its cwd), screened by lib/workspace's rules (a root too broad is never
 * offered), instead of "Method not found".
 */
import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import type { CallToolResult } from "../../../lib/mcp/sdk.ts";
import { loadServerSdk } from "../../../lib/mcp/server.ts";
import { os } from "../../../lib/platform/mod.ts";
import { frontDownstreams } from "../../../mcp/gateway/boot.ts";
import { Downstreams } from "../../../mcp/gateway/downstream.ts";
import { connect, textOf } from "../../_support/connect.ts";
import { spawnStdio } from "../../_support/stdio.ts";
import { HANG_GUARD_MS, spawnSilentRoots } from "../../_support/silent_roots.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { scriptServer } from "./_config.ts";

Deno.test("roots: a rootless client's downstream server gets the gateway's workspace from roots/list", async () => {
  const workspace = os === "windows" ? "C:\\work\\ws" : "/work/ws";
  const downstreams = new Downstreams([scriptServer("chatty", "chatty.ts")], {
    log: { info() {}, error() {} },
  });
  await loadServerSdk();
  const handle = frontDownstreams(downstreams, {
    workspaceRoots: [workspace],
    cleanup: () => downstreams.close(),
    waitMs: 60_000,
  });
  // connect() without roots: the client declares no roots capability at all.
  await using upstream = await connect(handle);
  assert.equal(
    textOf(await upstream.call("gateway_call", { name: "chatty__roots" })),
    os === "windows" ? "file:///C:/work/ws" : "file:///work/ws",
  );
  assert.deepEqual(
    JSON.parse(textOf(await upstream.call("gateway_call", { name: "chatty__capabilities" }))),
    { roots: {} },
    "roots are declared without listChanged: the gateway's workspace does not change",
  );
});

/** The spawned gateway (its workspace from its own environment) in front of chatty; the roots chatty sees. */
async function rootsSeen(workspaceEnv: string, cwd: string): Promise<string> {
  await using dir = await tempWorkspace();
  const chatty = scriptServer("chatty", "chatty.ts");
  if (chatty.transport.kind !== "stdio") throw new Error("a stdio entry");
  const config = dir.join("gateway.jsonc");
  const { command, args } = chatty.transport;
  await Deno.writeTextFile(config, JSON.stringify({ mcpServers: { chatty: { command, args } } }));
  await using gateway = await spawnStdio("gateway", {
    cwd,
    env: { MCP_GATEWAY_CONFIG: config, MCP_WORKSPACE: workspaceEnv },
  });
  const result = await gateway.client.callTool({
    name: "gateway_call",
    arguments: { name: "chatty__roots", arguments: {} },
  });
  return textOf(result as CallToolResult);
}

Deno.test("roots: the spawned gateway offers its MCP_WORKSPACE, and never a root lib/workspace refuses as too broad", async () => {
  await using project = await tempWorkspace({ "a.txt": "x" });
  const real = await Deno.realPath(project.path);
  assert.equal(await rootsSeen(project.path, project.path), pathToFileURL(real).href);
  // The whole file system is refused by lib/workspace: the downstream gets no root, not "/".
  assert.equal(await rootsSeen(os === "windows" ? "C:\\" : "/", project.path), "");
});

Deno.test("roots: a client that declares roots and never answers gets downstream servers the workspace, logged once", async () => {
  await using project = await tempWorkspace();
  const chatty = scriptServer("chatty", "chatty.ts");
  if (chatty.transport.kind !== "stdio") throw new Error("a stdio entry");
  const config = project.join("gateway.jsonc");
  const { command, args } = chatty.transport;
  await Deno.writeTextFile(config, JSON.stringify({ mcpServers: { chatty: { command, args } } }));
  await using gateway = await spawnSilentRoots("gateway", {
    cwd: project.path,
    env: { MCP_GATEWAY_CONFIG: config, MCP_WORKSPACE: project.path },
  });
  const roots = async () =>
    textOf(
      await gateway.client.callTool(
        { name: "gateway_call", arguments: { name: "chatty__roots", arguments: {} } },
        undefined,
        { timeout: HANG_GUARD_MS },
      ) as CallToolResult,
    );
  const workspace = pathToFileURL(await Deno.realPath(project.path)).href;
  assert.equal(await roots(), workspace);
  assert.equal(await roots(), workspace);
  assert.equal(gateway.asked(), 2, "each downstream roots/list is asked upstream");
  const log = await gateway.closeAndReadStderr();
  assert.equal(log.match(/did not answer roots\/list/g)?.length, 1, `stderr:\n${log}`);
});
