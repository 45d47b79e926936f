/** Builds an MCP server from a tool table: the shared shape every `mcp/<name>/server.ts` returns. */
import {
  ListRootsResultSchema,
  type LoggingMessageNotification,
  RootsListChangedNotificationSchema,
  Server,
} from "./sdk.ts";
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
  const workspace = spec.workspace;
  // The client's roots are asked for as part of the next tool call after initialize or roots/list_changed,
  // not at once: over HTTP a request outside a call travels on a GET stream the client may not have opened
  // yet, and would be lost. Tools wait for the answer (Workspace.ready, resolveInside) as before.
  let rootsStale = false;
  const markRootsStale = () => {
    rootsStale = Boolean(server.getClientCapabilities()?.roots);
  };
  registerTools(server, spec.name, spec.tools, {
    beforeCall(extra) {
      if (!workspace || !rootsStale) return;
      rootsStale = false;
      workspace.adoptClientRoots(async () =>
        (await extra.sendRequest({ method: "roots/list" }, ListRootsResultSchema)).roots.map((root) =>
          root.uri
        )
      );
    },
  });
  if (workspace) {
    server.oninitialized = markRootsStale;
    server.setNotificationHandler(RootsListChangedNotificationSchema, markRootsStale);
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
