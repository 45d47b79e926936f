/**
 * A client that cancels a gateway_call in flight: the call ends downstream too, and the gateway's log stays
 * quiet (a cancel is no failure: it logged "[error] gateway_call failed unexpectedly McpError … -32001" and
 * a stack trace for each).
 */
import assert from "node:assert/strict";
import { listServers, runArgs } from "../../../tools/catalog.ts";
import { LineTransport } from "../../../lib/mcp/line_transport.ts";
import { type CallToolResult, CallToolResultSchema } from "../../../lib/mcp/sdk.ts";
import { Client } from "../../../lib/mcp/sdk_client.ts";
import { textOf } from "../../_support/connect.ts";
import { waitFor } from "../../_support/poll.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { scriptServer } from "./_config.ts";

Deno.test("cancel: a gateway_call the client cancels ends downstream and logs no error", async () => {
  await using dir = await tempWorkspace();
  const entry = scriptServer("fixture", "fixture.ts");
  if (entry.transport.kind !== "stdio") throw new Error("a stdio entry");
  const { command, args } = entry.transport;
  const config = dir.join("gateway.jsonc");
  await Deno.writeTextFile(config, JSON.stringify({ mcpServers: { fixture: { command, args } } }));
  const gateway = listServers().find((server) => server.name === "gateway")!;
  const child = new Deno.Command(Deno.execPath(), {
    args: runArgs(gateway),
    env: { MCP_GATEWAY_CONFIG: config },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const stdin = child.stdin.getWriter();
  const client = new Client({ name: "cancel-test", version: "0.0.0" });
  await client.connect(
    new LineTransport(child.stdout, new WritableStream({ write: (chunk) => stdin.write(chunk) })),
  );
  const call = (name: string) =>
    client.callTool({ name: "gateway_call", arguments: { name } }) as Promise<CallToolResult>;

  const cancel = new AbortController();
  const waiting = client.request(
    { method: "tools/call", params: { name: "gateway_call", arguments: { name: "fixture__wait" } } },
    CallToolResultSchema,
    { signal: cancel.signal },
  ).catch((error) => error);
  await waitFor(
    "the wait to start downstream",
    async () => /^1 waited/.test(textOf(await call("fixture__cancellations"))),
  );
  cancel.abort("user cancel");
  assert.match(String(await waiting), /user cancel/);
  // The gateway's call failed before its notifications/cancelled reached the server.
  await waitFor(
    "the cancel downstream",
    async () => textOf(await call("fixture__cancellations")) === "1 waited, 1 cancelled",
  );

  await stdin.close();
  await child.status;
  await client.close();
  const log = await stderr;
  assert.doesNotMatch(log, /\[error\]|failed unexpectedly|-32001/, log);
});
