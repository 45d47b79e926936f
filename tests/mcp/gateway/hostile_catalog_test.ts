/**
 * The security finding F1, performed on a spawned gateway-mcp: a stdio server lists a 1 MB all-capitals
 * description, 100,000 capitals in names, a title, a parameter and its instructions; the agent searches with
 * 200,000 capitals. The tokenizer's old `([A-Z]+)([A-Z][a-z])` took over 200 s on the description alone,
 * with the event loop blocked (the gateway ignored stdin EOF and SIGTERM). gateway_search must answer.
 */
import assert from "node:assert/strict";
import type { CallToolResult } from "../../../lib/mcp/sdk.ts";
import { spawnStdio } from "../../_support/stdio.ts";
import { textOf } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { scriptServer } from "./_config.ts";

Deno.test("hostile catalog: megabytes of capitals in a server's tools and instructions, and in the query, leave gateway_search answering", async () => {
  await using dir = await tempWorkspace();
  const capitals = scriptServer("caps", "capitals.ts");
  if (capitals.transport.kind !== "stdio") throw new Error("a stdio entry");
  const config = dir.join("gateway.jsonc");
  const { command, args } = capitals.transport;
  await Deno.writeTextFile(config, JSON.stringify({ mcpServers: { caps: { command, args } } }));
  await using gateway = await spawnStdio("gateway", { cwd: dir.path, env: { MCP_GATEWAY_CONFIG: config } });
  // The SDK's request timeout (60 s) is the hang guard: the quadratic tokenizer needed minutes here.
  const search = async (query: string) =>
    textOf(await gateway.client.callTool({ name: "gateway_search", arguments: { query } }) as CallToolResult);
  assert.match(await search("weather forecast"), /^caps__get_weather — Forecast for a city/);
  assert.match(await search(`weather ${"D".repeat(200_000)}`), /caps__get_weather/);
  // Past its first 1,000 characters a query is not read; the reply quotes it short.
  const missed = await search(`${"D".repeat(200_000)} weather`);
  assert.match(missed, /^No tool matches "D+… \[[\d,]+ more characters\]" among 3 tools$/);
  const result = await gateway.client.callTool({
    name: "gateway_call",
    arguments: { name: "caps__get_weather", arguments: {} },
  });
  assert.equal(textOf(result as CallToolResult), "ok");
});
