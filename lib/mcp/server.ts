/** Builds an MCP server from a tool table: the shared shape every `mcp/<name>/server.ts` returns. */
import { type LoggingMessageNotification, RootsListChangedNotificationSchema, Server } from "./sdk.ts";
import { registerTools, type ToolDefinition } from "./tool.ts";
import type { Workspace } from "../workspace/workspace.ts";
import { VERSION } from "../version.ts";

/** What a server is made of. */
export interface ServerSpec {
  /** Short server name; every tool name starts with `<name>_`. */
  name: string;
  /** One or two sentences the client may show the model on connect. */
  instructions: string;
  tools: readonly ToolDefinition[];
  /** When given, it adopts the client's MCP roots (unless `MCP_WORKSPACE` is set). */
  workspace?: Workspace;
  /** Runs before the server closes: stdin EOF, a signal, or a test's disposal. */
  cleanup?: () => void | Promise<void>;
}

/** A built server and its cleanup hook. */
export interface McpServerHandle {
  readonly name: string;
  readonly server: Server;
  /** Runs the server's cleanup (once) and closes its transport. */
  close(): Promise<void>;
}

/** Builds the SDK server, registers the tools and wires workspace roots. No I/O happens here. */
export function createMcpServer(spec: ServerSpec): McpServerHandle {
  const server = new Server(
    { name: `${spec.name}-mcp`, version: VERSION },
    {
      // Every server honours logging/setLevel (the SDK keeps the level per session); see sendLog.
      capabilities: { tools: {}, logging: {} },
      instructions: spec.instructions,
    },
  );
  registerTools(server, spec.name, spec.tools);
  const workspace = spec.workspace;
  if (workspace) {
    const adoptRoots = () => {
      if (!server.getClientCapabilities()?.roots) return;
      workspace.adoptClientRoots(async () => (await server.listRoots()).roots.map((root) => root.uri));
    };
    server.oninitialized = adoptRoots;
    server.setNotificationHandler(RootsListChangedNotificationSchema, adoptRoots);
  }
  let closing: Promise<void> | undefined;
  return {
    name: spec.name,
    server,
    close() {
      closing ??= (async () => {
        try {
          await spec.cleanup?.();
        } finally {
          await server.close();
        }
      })();
      return closing;
    },
  };
}

/**
 * Sends a log message to the client unless it is below the level the client set with logging/setLevel.
 * The SDK keeps that level per HTTP session: this passes the session, which `sendLoggingMessage` alone does not.
 */
export async function sendLog(server: Server, params: LoggingMessageNotification["params"]): Promise<void> {
  await server.sendLoggingMessage(params, server.transport?.sessionId);
}
