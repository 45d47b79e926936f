/**
 * The security finding F8, performed on a spawned gateway-mcp: a remote server (real HTTP on 127.0.0.1)
 * answers 500 with an HTML page echoing the gateway's Authorization credential as character references,
 * placed so that the 300-character cut of failure text falls inside it, at every offset. Redacting the raw
 * page missed the encoded form, decoding spelled it out, the cut left 31 of its 32 characters and the last
 * redaction no longer matched them. No piece of it may reach the agent (call errors, search's down
 * reasons) or the gateway's stderr.
 */
import assert from "node:assert/strict";
import type { CallToolResult } from "../../../lib/mcp/sdk.ts";
import { spawnStdio } from "../../_support/stdio.ts";
import { waitFor } from "../../_support/poll.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { textOf } from "../../_support/connect.ts";
import { ECHOED_TOKEN, PUBLIC_VALUE, startEntityEcho } from "./_remote/entity_echo.ts";

/**
 * Fillers before the credential. The failure text is `Streamable HTTP error: Error POSTing to endpoint: `
 * (50 characters), the filler, a space and the credential: fillers 218 to 248 put the cut inside it; the
 * range has room on both sides should the SDK's wording change, and the public control proves it still does.
 */
const PADS = Array.from({ length: 47 }, (_, i) => 210 + i);

/** Pieces of `value` that must not show: its first four characters (the start a cut leaves), any six. */
function piecesShown(text: string, value: string): string[] {
  const pieces = [value.slice(0, 4)];
  for (let at = 0; at + 6 <= value.length; at++) pieces.push(value.slice(at, at + 6));
  return pieces.filter((piece) => text.includes(piece));
}

Deno.test("leak: a credential echoed as HTML character references across the cut shows nowhere, at any offset", async () => {
  await using echo = startEntityEcho();
  await using dir = await tempWorkspace();
  const headers = { Authorization: `Bearer ${ECHOED_TOKEN}` };
  const mcpServers: Record<string, unknown> = { up: { url: echo.url("/up"), type: "http", headers } };
  for (const pad of PADS) {
    mcpServers[`fail-${pad}`] = { url: echo.url(`/fail/${pad}`), type: "http", headers };
  }
  const config = dir.join("gateway.jsonc");
  await Deno.writeTextFile(config, JSON.stringify({ mcpServers }));
  const gateway = await spawnStdio("gateway", {
    cwd: dir.path,
    env: { MCP_GATEWAY_CONFIG: config, XDG_CONFIG_HOME: dir.join("xdg") },
  });
  let stderr = "";
  const ended = Promise.withResolvers<void>();
  gateway.transport.stderr?.on("data", (chunk: Uint8Array) => stderr += new TextDecoder().decode(chunk));
  gateway.transport.stderr?.on("end", () => ended.resolve());
  const call = async (name: string, args: Record<string, unknown>) =>
    textOf(await gateway.client.callTool({ name, arguments: args }) as CallToolResult);
  let search = "";
  const secretErrors: string[] = [];
  const publicErrors: string[] = [];
  try {
    await waitFor("every server to be tried", async () => {
      search = await call("gateway_search", { query: "echo" });
      return !search.includes("connecting");
    }, 30_000);
    for (const pad of PADS) {
      secretErrors.push(await call("gateway_call", { name: "up__echo_encoded", arguments: { pad } }));
      publicErrors.push(
        await call("gateway_call", { name: "up__echo_encoded", arguments: { pad, public: true } }),
      );
    }
  } finally {
    await gateway[Symbol.asyncDispose]();
  }
  await ended.promise;

  // The control: with a public value in its place, some pad leaves a cut-off start of it before the "…".
  const cutInside = publicErrors.filter((text) => {
    const end = text.match(/ (\S*)… \[[\d,]+ more characters cut\]$/)?.[1] ?? "";
    return end.length >= 4 && end.length < PUBLIC_VALUE.length && PUBLIC_VALUE.startsWith(end);
  });
  assert.ok(cutInside.length >= 20, `the cut fell inside the echoed value for ${cutInside.length} pads`);

  for (const [i, text] of secretErrors.entries()) {
    assert.match(text, /^Error \[internal\]: Cannot call "echo_encoded" on MCP server "up": .*cut\]$/);
    assert.deepEqual(piecesShown(text, ECHOED_TOKEN), [], `pad ${PADS[i]}: ${text}`);
  }
  assert.match(search, /down: fail-210 \(Cannot connect to MCP server "fail-210": Streamable HTTP error/);
  assert.deepEqual(piecesShown(search, ECHOED_TOKEN), [], "the search reply");
  for (const pad of PADS) assert.match(stderr, new RegExp(`Cannot connect to MCP server "fail-${pad}"`));
  assert.deepEqual(piecesShown(stderr, ECHOED_TOKEN), [], "the gateway's stderr");
});
