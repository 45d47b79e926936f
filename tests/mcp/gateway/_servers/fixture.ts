/**
 * A small SDK server for the gateway's failure-mode tests, over stdio:
 * `pid` (its process id), `crash` (exits mid-call), `grow` (adds a tool and sends tools/list_changed),
 * `wait` (runs until cancelled) and `cancellations` (how many `wait` calls started and how many were cancelled).
 * With `FIXTURE_ONCE=<file>` it serves only the first time: later starts exit at once (a broken restart).
 * With `FIXTURE_STUBBORN=1` it ignores stdin EOF and keeps a `sleep` child (pid in its stderr) running, as a
 * careless foreign server would.
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

const once = Deno.env.get("FIXTURE_ONCE");
if (once) {
  try {
    await Deno.writeTextFile(once, String(Deno.pid), { createNew: true });
  } catch {
    Deno.exit(4);
  }
}

const schema = { type: "object" as const, properties: {} };
const tools: Tool[] = [
  { name: "pid", description: "Report the process id", inputSchema: schema },
  { name: "crash", description: "Exit in the middle of the call", inputSchema: schema },
  { name: "grow", description: "Add the tool extra and announce it", inputSchema: schema },
  { name: "wait", description: "Run until cancelled", inputSchema: schema },
  { name: "cancellations", description: "Count the waits started and cancelled", inputSchema: schema },
];
let waiting = 0;
let cancellations = 0;

const server = new Server(
  { name: "fixture", version: "0.0.0" },
  { capabilities: { tools: { listChanged: true } }, instructions: "Failure modes for tests" },
);
const text = (value: unknown): CallToolResult => ({ content: [{ type: "text", text: String(value) }] });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  switch (request.params.name) {
    case "pid":
      return text(Deno.pid);
    case "crash":
      Deno.exit(3);
      break;
    case "grow":
      tools.push({ name: "extra", description: "Appeared later", inputSchema: schema });
      await server.sendToolListChanged();
      return text("grown");
    case "wait":
      waiting++;
      await new Promise((resolve) => extra.signal.addEventListener("abort", resolve, { once: true }));
      cancellations++;
      return text("cancelled");
    case "cancellations":
      return text(`${waiting} waited, ${cancellations} cancelled`);
    case "extra":
      return text("extra");
  }
  throw new Error(`Unknown tool "${request.params.name}"`);
});
const stubborn = Deno.env.get("FIXTURE_STUBBORN") === "1";
if (stubborn) {
  const sleeper = new Deno.Command("sleep", { args: ["300"], stdin: "null", stdout: "null" }).spawn();
  await Deno.stderr.write(new TextEncoder().encode(`sleeper ${sleeper.pid}\n`));
  setInterval(() => {}, 60_000);
}
const transport = new LineTransport(Deno.stdin.readable, Deno.stdout.writable);
transport.onclose = () => stubborn || Deno.exit(0);
await server.connect(transport);
