/**
 * Builds an MCP server from a tool table: the shared shape every `mcp/<name>/server.ts` returns. The SDK
 * server itself is built at first use, from `server_binding.ts`: this module imports no SDK value, so a
 * stdio entry answers initialize and tools/list before paying for the SDK (`quick_start.ts`).
 * @module
 */
import type { LoggingMessageNotification, Server } from "./sdk.ts";
import { listedTools, type ToolDefinition, toolTable } from "./tool.ts";
import type { ServerManifest } from "./manifest.ts";
import type { Workspace } from "../workspace/workspace.ts";

let binding: typeof import("./server_binding.ts") | undefined;

/** Loads the SDK's server half; a handle's `server` needs it. Cheap once loaded. */
export async function loadServerSdk(): Promise<void> {
  binding ??= await import("./server_binding.ts");
}

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
  /** What it was built from: the stdio entry answers the handshake from it before the SDK is loaded. */
  readonly spec: ServerSpec;
  /** The SDK server, built at first use; call {@link loadServerSdk} before. */
  readonly server: Server;
  /** Whether {@link server} was built (a transport may be connected). */
  readonly serverBuilt: boolean;
  /** Runs the server's cleanup (once) and closes its transport. */
  close(): Promise<void>;
}

/** The handshake `spec` gives: what a server's committed `tools.json` and `server.json` instructions must hold. */
export function manifestOfSpec(spec: ServerSpec): ServerManifest {
  return { name: spec.name, instructions: spec.instructions, tools: listedTools(spec.tools) };
}

/** Checks the tool table (throws on a bad one) and returns the handle. No I/O happens here. */
export function createMcpServer(spec: ServerSpec): McpServerHandle {
  const byName = toolTable(spec.name, spec.tools);
  let server: Server | undefined;
  let closing: Promise<void> | undefined;
  return {
    name: spec.name,
    spec,
    get server() {
      if (!binding) throw new Error(`${spec.name}-mcp: await loadServerSdk() before using the server`);
      server ??= binding.buildServer(spec, byName);
      return server;
    },
    get serverBuilt() {
      return server !== undefined;
    },
    close() {
      closing ??= (async () => {
        try {
          await spec.cleanup?.();
        } finally {
          await server?.close();
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
