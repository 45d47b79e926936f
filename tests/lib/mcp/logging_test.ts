import assert from "node:assert/strict";
import { type LoggingMessageNotification, LoggingMessageNotificationSchema } from "../../../lib/mcp/sdk.ts";
import { Client, StreamableHTTPClientTransport } from "../../../lib/mcp/sdk_client.ts";
import { serveHttp } from "../../../lib/mcp/http.ts";
import { type McpServerHandle, sendLog } from "../../../lib/mcp/server.ts";
import { createServer } from "../../../mcp/hello/server.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { connect } from "../../_support/connect.ts";
import { waitFor } from "../../_support/poll.ts";

function collectLogs(client: Client): LoggingMessageNotification["params"][] {
  const logs: LoggingMessageNotification["params"][] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    logs.push(notification.params);
  });
  return logs;
}

Deno.test("logging: every server declares logging and drops messages below the level the client set", async () => {
  const handle = createServer({ workspace: Workspace.fromEnv() });
  await using connection = await connect(handle);
  assert.deepEqual(connection.client.getServerCapabilities()?.logging, {});
  const logs = collectLogs(connection.client);
  assert.deepEqual(await connection.client.setLoggingLevel("warning"), {});
  await sendLog(handle.server, { level: "info", data: "too chatty" });
  await sendLog(handle.server, { level: "error", data: "worth reading" });
  await waitFor("the error log", () => logs.length > 0);
  assert.deepEqual(logs, [{ level: "error", data: "worth reading" }]);
});

Deno.test("logging: over HTTP the level is per session", async () => {
  const handles: McpServerHandle[] = [];
  const server = await serveHttp(() => {
    const handle = createServer({ workspace: Workspace.fromEnv() });
    handles.push(handle);
    return handle;
  }, { listen: { hostname: "127.0.0.1", port: 0 } });
  const clients: Client[] = [];
  try {
    for (const _ of [1, 2]) {
      const client = new Client({ name: "log-test", version: "0.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      clients.push(client);
    }
    const [quiet, chatty] = clients.map(collectLogs);
    await clients[0].setLoggingLevel("error");
    await clients[1].setLoggingLevel("debug");
    // Logs outside a request travel on the client's GET stream, which it opens without waiting: prime it.
    for (const [i, handle] of handles.entries()) {
      const logs = [quiet, chatty][i];
      await waitFor("the session's log stream", async () => {
        await sendLog(handle.server, { level: "critical", data: "ready" });
        return logs.length > 0;
      });
    }
    for (const handle of handles) {
      await sendLog(handle.server, { level: "info", data: "info" });
      await sendLog(handle.server, { level: "error", data: "error" });
    }
    const data = (logs: typeof quiet) => logs.map((entry) => entry.data).filter((text) => text !== "ready");
    await waitFor("both sessions' logs", () => data(quiet).length >= 1 && data(chatty).length >= 2);
    assert.deepEqual(data(quiet), ["error"]);
    assert.deepEqual(data(chatty), ["info", "error"]);
  } finally {
    for (const client of clients) await client.close();
    await server.close();
  }
});
