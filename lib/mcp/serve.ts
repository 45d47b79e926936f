/** Connects a server to stdio and exits cleanly on stdin EOF, SIGINT or SIGTERM, after its cleanup. */
import process from "node:process";
import { type JSONRPCMessage, StdioServerTransport } from "./sdk.ts";
import type { McpServerHandle } from "./server.ts";
import { platform } from "../platform/mod.ts";
import { log } from "../log.ts";

/** A cleanup that hangs must not keep a dead client's server alive. */
const SHUTDOWN_GRACE_MS = 5_000;

/** Serves `handle` over stdin/stdout until the client goes away or a signal arrives. */
export async function serveStdio(handle: McpServerHandle): Promise<void> {
  let stopping = false;
  const shutdown = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    log.debug(`${handle.name}-mcp: shutting down (${reason})`);
    const timer = setTimeout(() => Deno.exit(0), SHUTDOWN_GRACE_MS);
    try {
      await handle.close();
    } catch (error) {
      log.error(`${handle.name}-mcp: cleanup failed`, error);
    }
    clearTimeout(timer);
    Deno.exit(0);
  };
  for (const signal of platform.shutdownSignals) {
    Deno.addSignalListener(signal, () => shutdown(signal));
  }
  // A stray rejection in one tool call must not take the whole server (and the agent's tools) down.
  globalThis.addEventListener("unhandledrejection", (event) => {
    event.preventDefault();
    log.error(`${handle.name}-mcp: unhandled rejection`, event.reason);
  });
  process.stdin.on("end", () => shutdown("stdin closed"));
  process.stdin.on("close", () => shutdown("stdin closed"));
  const transport = new StdioServerTransport();
  // The SDK drops a line it cannot read; JSON-RPC asks for an error reply with a null id.
  transport.onerror = (error) => {
    const reply = unreadableLineReply(error);
    if (reply) transport.send(reply).catch(() => {});
  };
  await handle.server.connect(transport);
}

/** `-32700` for a line that is not JSON, `-32600` for JSON that is not a JSON-RPC message; else none. */
export function unreadableLineReply(error: Error): JSONRPCMessage | undefined {
  const invalid = error instanceof SyntaxError
    ? { code: -32700, message: `Parse error: ${error.message}` }
    : error.name === "ZodError"
    ? { code: -32600, message: "Invalid Request: not a JSON-RPC 2.0 message" }
    : undefined;
  return invalid && { jsonrpc: "2.0", id: null, error: invalid } as unknown as JSONRPCMessage;
}
