/**
 * A stdio server whose tool names collide once normalised, the dotted one listed first: `read.file`,
 * `read_file` (each answers with its own name), and `churn`, which sends `count` tools/list_changed
 * notifications (a list_changed storm: the gateway re-lists and rebuilds its catalog each time).
 * @module
 */
import { LineTransport } from "../../../../lib/mcp/line_transport.ts";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  Server,
  type Tool,
} from "../../../../lib/mcp/sdk.ts";

const schema = { type: "object" as const, properties: {} };
const tools: Tool[] = [
  { name: "read.file", description: "The dotted twin", inputSchema: schema },
  { name: "read_file", description: "Read a file", inputSchema: schema },
  {
    name: "churn",
    description: "Announce a changed tool list count times",
    inputSchema: { type: "object", properties: { count: { type: "number" } } },
  },
];
const server = new Server({ name: "colliding", version: "0.0.0" }, {
  capabilities: { tools: { listChanged: true } },
});
const text = (value: string): CallToolResult => ({ content: [{ type: "text", text: value }] });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const name = request.params.name;
  if (name !== "churn") return text(`this is ${name}`);
  const count = Number(request.params.arguments?.count ?? 1);
  for (let i = 0; i < count; i++) await server.sendToolListChanged();
  return text(`announced ${count}`);
});
const transport = new LineTransport(Deno.stdin.readable, Deno.stdout.writable);
transport.onclose = () => Deno.exit(0);
await server.connect(transport);
