/**
 * A small SDK server for the gateway's forwarding tests, over stdio:
 * `progress` (`count` progress notifications `every_ms` apart, then "done"; stops when cancelled), `log`
 * (three log messages: info from logger "db", debug without a logger, error from "db"), `roots` (asks the
 * client for roots/list and returns the URIs, one a line), `roots_changes` (how many
 * notifications/roots/list_changed arrived), `ask` (an elicitation; returns the client's answer as JSON or the
 * error; `ask_briefly` gives up after 300 ms, cancelling its request), `asked` (how many elicitations it sent), `sample` (a sampling request; returns the reply's text or the error) and
 * `cancellations` (how many `progress` calls started and how many were cancelled) and `capabilities` (the
 * client capabilities the gateway declared to it, as JSON).
 * @module
 */
import { LineTransport } from "../../../../lib/mcp/line_transport.ts";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  RootsListChangedNotificationSchema,
  Server,
  type Tool,
} from "../../../../lib/mcp/sdk.ts";

const empty = { type: "object" as const, properties: {} };
const tools: Tool[] = [
  {
    name: "progress",
    description: "Report progress count times, every_ms apart, then return",
    inputSchema: { type: "object", properties: { count: { type: "number" }, every_ms: { type: "number" } } },
  },
  { name: "log", description: "Send three log messages", inputSchema: empty },
  { name: "ask", description: "Ask the user to confirm", inputSchema: empty },
  { name: "ask_briefly", description: "Ask, giving up after 300 ms", inputSchema: empty },
  { name: "asked", description: "Count the elicitations sent", inputSchema: empty },
  { name: "sample", description: "Ask the client's model", inputSchema: empty },
  { name: "roots", description: "Ask the client for its roots", inputSchema: empty },
  { name: "roots_changes", description: "Count roots/list_changed notifications", inputSchema: empty },
  { name: "capabilities", description: "Show the client capabilities declared", inputSchema: empty },
  {
    name: "cancellations",
    description: "Count the progress calls started and cancelled",
    inputSchema: empty,
  },
];
let started = 0;
let cancelled = 0;
let rootsChanges = 0;
let asked = 0;

const server = new Server({ name: "chatty", version: "0.0.0" }, { capabilities: { tools: {}, logging: {} } });
const text = (value: unknown): CallToolResult => ({ content: [{ type: "text", text: String(value) }] });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
server.setNotificationHandler(RootsListChangedNotificationSchema, () => void rootsChanges++);
server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  const args = (request.params.arguments ?? {}) as Record<string, number | undefined>;
  switch (request.params.name) {
    case "progress": {
      const { count = 3, every_ms: everyMs = 0 } = args;
      const token = request.params._meta?.progressToken;
      started++;
      for (let step = 1; step <= count; step++) {
        if (everyMs) await new Promise((resolve) => setTimeout(resolve, everyMs));
        if (extra.signal.aborted) {
          cancelled++;
          return text("cancelled");
        }
        if (token === undefined) continue;
        await extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken: token, progress: step, total: count, message: `step ${step}` },
        });
      }
      return text("done");
    }
    case "log":
      await server.sendLoggingMessage({ level: "info", logger: "db", data: "connected" });
      await server.sendLoggingMessage({ level: "debug", data: "details" });
      await server.sendLoggingMessage({ level: "error", logger: "db", data: { code: 7 } });
      return text("logged");
    case "ask":
    case "ask_briefly":
      asked++;
      // The SDK ignores a cancellation of request id 0 (`if (!requestId)`): make sure this one is not the first.
      if (request.params.name === "ask_briefly") await server.ping();
      try {
        return text(JSON.stringify(
          await server.elicitInput({
            message: "Drop the table?",
            requestedSchema: { type: "object", properties: { sure: { type: "boolean" } } },
          }, request.params.name === "ask_briefly" ? { timeout: 300 } : {}),
        ));
      } catch (error) {
        return text(`error: ${error instanceof Error ? error.message : error}`);
      }
    case "asked":
      return text(asked);
    case "sample":
      try {
        const reply = await server.createMessage({
          messages: [{ role: "user", content: { type: "text", text: "Say hi" } }],
          maxTokens: 10,
        });
        return text(reply.content.type === "text" ? reply.content.text : reply.content.type);
      } catch (error) {
        return text(`error: ${error instanceof Error ? error.message : error}`);
      }
    case "roots":
      return text((await server.listRoots()).roots.map((root) => root.uri).join("\n"));
    case "roots_changes":
      return text(rootsChanges);
    case "capabilities":
      return text(JSON.stringify(server.getClientCapabilities() ?? {}));
    case "cancellations":
      return text(`${started} started, ${cancelled} cancelled`);
  }
  throw new Error(`Unknown tool "${request.params.name}"`);
});
const transport = new LineTransport(Deno.stdin.readable, Deno.stdout.writable);
transport.onclose = () => Deno.exit(0);
await server.connect(transport);
