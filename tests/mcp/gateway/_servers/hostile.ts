/**
 * A stdio server that attacks the gateway through what it sends back, for the hostile-downstream tests:
 * `pid` (its process id), `big` (one text block of `mb` megabytes), `blocks` (`count` text blocks of `size`
 * characters), `image` (an image of `mb` megabytes of base64), `extras` (a small text with `mb` megabytes in `_meta`
 * and in a key MCP does not know), `flood` (`count` progress notifications as
 * fast as it can write them, then "flooded"), `child` (starts a `sleep` that outlives it unless killed; its
 * pid). With `HOSTILE_BAD_TOOL=1` one of its tools has `inputSchema: { type: "string" }`; with
 * `HOSTILE_CRASH=1` it writes a few stderr lines (one with `HOSTILE_SECRET`) and exits before answering.
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

if (Deno.env.get("HOSTILE_CRASH") === "1") {
  const secret = Deno.env.get("HOSTILE_SECRET") ?? "";
  const lines = ["loading config", `fatal: the API refused the key ${secret}`, "  at main (server.js:12)"];
  Deno.stderr.writeSync(new TextEncoder().encode(`${"noise\n".repeat(500)}${lines.join("\n")}\n`));
  Deno.exit(1);
}

const object = { type: "object" as const, properties: {} };
const numbers = (...names: string[]) => ({
  type: "object" as const,
  properties: Object.fromEntries(names.map((name) => [name, { type: "number" }])),
});
const tools: Tool[] = [
  { name: "pid", description: "Report the process id", inputSchema: object },
  { name: "big", description: "One huge text block", inputSchema: numbers("mb") },
  { name: "blocks", description: "Many small text blocks", inputSchema: numbers("count", "size") },
  { name: "image", description: "One huge image", inputSchema: numbers("mb") },
  { name: "extras", description: "Huge _meta and unknown keys", inputSchema: numbers("mb") },
  { name: "flood", description: "Flood progress notifications", inputSchema: numbers("count") },
  { name: "child", description: "Start a sleeping child", inputSchema: object },
  { name: "storm", description: "Add a tool, then send count list_changed", inputSchema: numbers("count") },
  { name: "lists", description: "How many tools/list it answered", inputSchema: object },
  { name: "escapees", description: "Start processes in sessions of their own", inputSchema: object },
  { name: "closeout", description: "Close stdout and run on", inputSchema: object },
  { name: "fail", description: "A JSON-RPC error reply with the given code", inputSchema: numbers("code") },
];
if (Deno.env.get("HOSTILE_BAD_TOOL") === "1") {
  tools.splice(2, 0, {
    name: "broken",
    description: "A schema that is no object",
    inputSchema: { type: "string" } as unknown as Tool["inputSchema"],
  });
}

const server = new Server({ name: "hostile", version: "0.0.0" }, { capabilities: { tools: {} } });
const text = (value: unknown): CallToolResult => ({ content: [{ type: "text", text: String(value) }] });
let lists = 0;
server.setRequestHandler(ListToolsRequestSchema, () => {
  lists++;
  return { tools };
});
server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
  const args = (request.params.arguments ?? {}) as Record<string, number | undefined>;
  const megabytes = Math.round((args.mb ?? 1) * 1_000_000);
  switch (request.params.name) {
    case "pid":
      return text(Deno.pid);
    case "big":
      return text("a".repeat(megabytes));
    case "blocks":
      return {
        content: Array.from(
          { length: args.count ?? 1 },
          (_, i) => ({ type: "text" as const, text: `${i}:`.padEnd(args.size ?? 100, "b") }),
        ),
      };
    case "image":
      return { content: [{ type: "image", mimeType: "image/png", data: "A".repeat(megabytes) }] };
    case "extras":
      return {
        content: [{ type: "text", text: "small" }],
        _meta: { junk: "m".repeat(megabytes) },
        junk: "j".repeat(megabytes),
      };
    case "flood": {
      const token = request.params._meta?.progressToken;
      const count = args.count ?? 1;
      for (let step = 1; token !== undefined && step <= count; step++) {
        // Not awaited: the writes queue up as fast as the server can make them.
        extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken: token, progress: step, total: count, message: `step ${step}` },
        }).catch(() => {});
      }
      return text("flooded");
    }
    case "child": {
      const sleeper = new Deno.Command("sleep", { args: ["300"], stdin: "null", stdout: "null" }).spawn();
      return text(sleeper.pid);
    }
    case "storm": {
      if (!tools.some((tool) => tool.name === "stormed")) {
        tools.push({ name: "stormed", description: "Listed after the storm", inputSchema: object });
      }
      // Not awaited: every notification is written before any tools/list it causes is read.
      for (let i = 0; i < (args.count ?? 1); i++) server.sendToolListChanged().catch(() => {});
      return text("stormed");
    }
    case "lists":
      return text(lists);
    case "escapees": {
      // Each in a session of its own, so no longer in our process group; the shell ignores SIGTERM.
      const spawn = (args: string[]) =>
        new Deno.Command("setsid", { args, stdin: "null", stdout: "null", stderr: "null" }).spawn().pid;
      return text([spawn(["sleep", "300"]), spawn(["sh", "-c", "trap '' TERM HUP; sleep 300; :"])].join(" "));
    }
    case "closeout":
      // Under `closeOutWrapper` (_config.ts) the wrapper lives on, its stdout closed: Deno itself cannot
      // close its own fd 1 (it writes it through a socket of its own).
      Deno.exit(0);
      break;
    case "fail":
      // The SDK replies with the error's own code and message (an McpError's message repeats its code).
      throw Object.assign(new Error("the tool refused: quota exceeded for project 7"), {
        code: args.code ?? -32000,
      });
  }
  throw new Error(`Unknown tool "${request.params.name}"`);
});
const transport = new LineTransport(Deno.stdin.readable, Deno.stdout);
transport.onclose = () => Deno.exit(0);
await server.connect(transport);
