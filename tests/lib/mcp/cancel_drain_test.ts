/**
 * A request the client cancelled gets no answer (the SDK drops it): once stdin ends, the server must not wait
 * its drain time for that answer, as the gateway did for 10 s after a cancelled gateway_call.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { LineTransport } from "../../../lib/mcp/line_transport.ts";
import { Client } from "../../../lib/mcp/sdk_client.ts";
import { CallToolResultSchema } from "../../../lib/mcp/sdk.ts";
import { pollUntil } from "../../_support/poll.ts";

const SERVER = fileURLToPath(new URL("./fixture/cancel_server.ts", import.meta.url));

Deno.test("a server whose stdin ends after the client cancelled its only call in flight exits without draining", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "--quiet", "-A", SERVER],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const stdin = child.stdin.getWriter();
  const client = new Client({ name: "cancel-test", version: "0.0.0" });
  await client.connect(
    new LineTransport(child.stdout, new WritableStream({ write: (chunk) => stdin.write(chunk) })),
  );
  const cancel = new AbortController();
  // The server receives the call before it is cancelled: its tools/list answer comes after the call arrived.
  const call = client.request({ method: "tools/call", params: { name: "hang" } }, CallToolResultSchema, {
    signal: cancel.signal,
  }).catch((error) => error);
  await client.listTools();
  cancel.abort("the user pressed stop");
  assert.match(String(await call), /the user pressed stop/);
  // The cancellation is written before stdin closes (one ordered stream).
  await client.ping();
  await stdin.close();
  let exited = false;
  child.status.then(() => exited = true);
  // A hang guard, far below the server's 10-minute drain: before the fix it waited for the cancelled call.
  const ok = await pollUntil(() => exited, 60_000);
  if (!ok) child.kill("SIGKILL");
  await child.status;
  await client.close();
  assert.ok(ok, "the server exited once its stdin ended, not after its drain time");
});
