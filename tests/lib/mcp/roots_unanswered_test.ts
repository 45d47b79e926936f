/**
 * A client that declares roots but never answers roots/list (seen with the MCP Inspector CLI under Deno over
 * HTTP) must not hold every workspace tool for the SDK's 60 s request timeout: the server asks with a short
 * patience, works in its configured workspace meanwhile, and says so on stderr once.
 * @module
 */
import assert from "node:assert/strict";
import type { CallToolResult } from "../../../lib/mcp/sdk.ts";
import { HANG_GUARD_MS, spawnSilentRoots } from "../../_support/silent_roots.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

const SILENT_ROOTS = /did not answer roots\/list/g;

Deno.test("roots/list never answered: fs_read answers from the configured workspace, logged once", async () => {
  await using ws = await tempWorkspace({ "notes.txt": "in the configured workspace\n" });
  await using fs = await spawnSilentRoots("fs", { cwd: ws.path });
  const read = async () =>
    await fs.client.callTool({ name: "fs_read", arguments: { path: "notes.txt" } }, undefined, {
      timeout: HANG_GUARD_MS,
    }) as CallToolResult;
  const first = await read();
  assert.equal(first.isError ?? false, false, JSON.stringify(first));
  assert.match(JSON.stringify(first.content), /in the configured workspace/);
  // The roots change: the server asks again, waits as briefly, and does not log again.
  await fs.client.sendRootsListChanged();
  const second = await read();
  assert.equal(second.isError ?? false, false, JSON.stringify(second));
  assert.equal(fs.asked(), 2, "the server asks for roots once per initialize or roots/list_changed");
  const log = await fs.closeAndReadStderr();
  assert.equal(log.match(SILENT_ROOTS)?.length, 1, `stderr:\n${log}`);
});
