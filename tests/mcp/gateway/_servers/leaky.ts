/**
 * A stdio server that leaks the secret its config gives it (`LEAKY_SECRET`) and floods the gateway, for the
 * gateway's redaction tests. At start it writes the secret to stderr. `fail` throws (a JSON-RPC error) with
 * the secret in the message; `fail_big` throws a 200 KB message with the secret in its middle; `fail_result`
 * returns an isError result quoting it; `flood` writes 1 MB of stderr lines carrying it, and one 300 KB line
 * without a newline until its end. With `LEAKY_DIE=1` it writes 200 KB of stderr and exits at once.
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

const secret = Deno.env.get("LEAKY_SECRET") ?? "no secret given";
const encoder = new TextEncoder();
const stderr = (text: string) => {
  const bytes = encoder.encode(text);
  for (let at = 0; at < bytes.length;) at += Deno.stderr.writeSync(bytes.subarray(at));
};

if (Deno.env.get("LEAKY_DIE") === "1") {
  stderr(`fatal: the API refused key ${secret}\n${"stack frame of a crash\n".repeat(9_000)}`);
  Deno.exit(1);
}
stderr(`starting with key ${secret}\n`);

const schema = { type: "object" as const, properties: {} };
const tools: Tool[] = ["fail", "fail_big", "fail_result", "flood"].map((name) => ({
  name,
  description: `Leak the secret: ${name}`,
  inputSchema: schema,
}));
const server = new Server({ name: "leaky", version: "0.0.0" }, { capabilities: { tools: {} } });
const text = (value: string, isError = false): CallToolResult => ({
  content: [{ type: "text", text: value }],
  ...(isError ? { isError } : {}),
});
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, (request) => {
  switch (request.params.name) {
    case "fail":
      throw new Error(`cannot reach the API with key ${secret}`);
    case "fail_big":
      throw new Error(`${"x".repeat(100_000)} key ${secret} ${"y".repeat(100_000)}`);
    case "fail_result":
      return text(`the API said: unknown key ${secret}`, true);
    case "flood":
      stderr(`debug: using key ${secret}\n`.repeat(40_000));
      stderr(`${"z".repeat(300_000)} key ${secret}\n`);
      return text("flooded");
  }
  throw new Error(`Unknown tool "${request.params.name}"`);
});
const transport = new LineTransport(Deno.stdin.readable, Deno.stdout.writable);
transport.onclose = () => Deno.exit(0);
await server.connect(transport);
