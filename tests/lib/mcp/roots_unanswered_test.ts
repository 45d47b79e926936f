/**
 * A client that declares roots but never answers roots/list (seen with the MCP Inspector CLI under Deno over
 * HTTP) must not hold every workspace tool for the SDK's 60 s request timeout: the server asks with a short
 * patience, works in its configured workspace meanwhile, and says so on stderr once.
 * @module
 */
import assert from "node:assert/strict";
import { ListRootsRequestSchema } from "../../../lib/mcp/sdk.ts";
import { Client, StdioClientTransport } from "../../../lib/mcp/sdk_client.ts";
import type { CallToolResult } from "../../../lib/mcp/sdk.ts";
import { listServers, runArgs } from "../../../tools/catalog.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

/** Far above the patience, far below the SDK's 60 s: a hang guard, not a speed check. */
const HANG_GUARD_MS = 30_000;

const SILENT_ROOTS = /did not answer roots\/list/g;

Deno.test("roots/list never answered: fs_read answers from the configured workspace, logged once", async () => {
  await using ws = await tempWorkspace({ "notes.txt": "in the configured workspace\n" });
  const fs = listServers().find((server) => server.name === "fs");
  assert.ok(fs);
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: runArgs(fs),
    cwd: ws.path,
    env: { ...Deno.env.toObject(), DENO_NO_UPDATE_CHECK: "1" },
    stderr: "pipe",
  });
  const stderr = new Response(transport.stderr as unknown as ReadableStream<Uint8Array>).text();
  const client = new Client({ name: "silent-roots", version: "0" }, {
    capabilities: { roots: { listChanged: true } },
  });
  let asked = 0;
  // Declares roots, then never answers: the request stays open until the connection closes.
  client.setRequestHandler(ListRootsRequestSchema, () => {
    asked++;
    return new Promise<never>(() => {});
  });
  await client.connect(transport);
  try {
    const read = async () =>
      await client.callTool({ name: "fs_read", arguments: { path: "notes.txt" } }, undefined, {
        timeout: HANG_GUARD_MS,
      }) as CallToolResult;
    const first = await read();
    assert.equal(first.isError ?? false, false, JSON.stringify(first));
    assert.match(JSON.stringify(first.content), /in the configured workspace/);
    // The roots change: the server asks again, waits as briefly, and does not log again.
    await client.sendRootsListChanged();
    const second = await read();
    assert.equal(second.isError ?? false, false, JSON.stringify(second));
    assert.equal(asked, 2, "the server asked for roots once per initialize or roots/list_changed");
  } finally {
    await client.close();
  }
  const log = await stderr;
  assert.equal(log.match(SILENT_ROOTS)?.length, 1, `stderr:\n${log}`);
});
