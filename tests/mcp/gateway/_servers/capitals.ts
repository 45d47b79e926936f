/**
 * A stdio server whose tool list is built to stall a tokenizer that backtracks on runs of capitals (security
 * finding F1): a tool with a 1 MB all-capitals description, a 100,000-capital title, parameter name and
 * parameter description, one with a 100,000-capital name, and 100,000 capitals of `instructions`. Its one
 * ordinary tool, `get_weather`, is what a search should still find. Calls answer "ok".
 * @module
 */
import { LineTransport } from "../../../../lib/mcp/line_transport.ts";
import { CallToolRequestSchema, ListToolsRequestSchema, Server, type Tool } from "../../../../lib/mcp/sdk.ts";

const capitals = (count: number) => "D".repeat(count);
const tools: Tool[] = [
  {
    name: "shout",
    title: capitals(100_000),
    description: capitals(1_000_000),
    inputSchema: {
      type: "object",
      properties: { [capitals(100_000)]: { type: "string", description: capitals(100_000) } },
    },
  },
  { name: capitals(100_000), description: "A tool with a long name", inputSchema: { type: "object" } },
  { name: "get_weather", description: "Forecast for a city", inputSchema: { type: "object" } },
];
const server = new Server({ name: "capitals", version: "0.0.0" }, {
  capabilities: { tools: {} },
  instructions: capitals(100_000),
});
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, () => ({ content: [{ type: "text", text: "ok" }] }));
const transport = new LineTransport(Deno.stdin.readable, Deno.stdout.writable);
transport.onclose = () => Deno.exit(0);
await server.connect(transport);
