/** An MCP client linked in process to a server under test: `await using c = await connect(handle)`. */
import { ListRootsRequestSchema } from "../../lib/mcp/sdk.ts";
import { Client, InMemoryTransport } from "../../lib/mcp/sdk_client.ts";
import type { CallToolResult } from "../../lib/mcp/sdk.ts";
import { loadServerSdk, type McpServerHandle } from "../../lib/mcp/server.ts";

/** A connected client with shortcuts for tool calls. */
export interface Connection extends AsyncDisposable {
  client: Client;
  /** Calls a tool and returns the whole result. */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Calls a tool and returns the text of its first content block. */
  text(name: string, args?: Record<string, unknown>): Promise<string>;
}

/** Options of the in-process client. */
export interface ConnectOptions {
  /** When set, the client offers MCP roots (file URIs) and answers roots/list with them. */
  roots?: string[];
}

/** Links a real SDK client to `handle` over an in-memory transport pair. */
export async function connect(handle: McpServerHandle, options: ConnectOptions = {}): Promise<Connection> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client(
    { name: "test-client", version: "0.0.0" },
    { capabilities: options.roots ? { roots: { listChanged: true } } : {} },
  );
  if (options.roots) {
    const roots = options.roots;
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: roots.map((uri) => ({ uri })) }));
  }
  await loadServerSdk();
  await handle.server.connect(serverTransport);
  await client.connect(clientTransport);
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    await client.callTool({ name, arguments: args }) as CallToolResult;
  return {
    client,
    call,
    async text(name, args) {
      const result = await call(name, args);
      const first = result.content[0];
      return first?.type === "text" ? first.text : "";
    },
    async [Symbol.asyncDispose]() {
      await client.close();
      await handle.close();
    },
  };
}

/** The text of a result's first content block. */
export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === "text" ? first.text : "";
}
