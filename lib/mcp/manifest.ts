/**
 * What a server tells a client in the handshake — name, version, capabilities, instructions, tool list —
 * as plain data. A stdio entry answers the handshake from its committed `server.json` and `tools.json`
 * (`quick_start.ts`) before it loads zod, the SDK or any tool module; each server's snapshot test keeps
 * `tools.json` equal to what its tool table lists, and its server.ts takes the instructions from server.json.
 * @module
 */
import type { Implementation, ServerCapabilities, Tool } from "./sdk.ts";
import { VERSION } from "../version.ts";

/** A server's handshake, without the tool modules. */
export interface ServerManifest {
  /** Short server name; every tool name starts with `<name>_`. */
  name: string;
  instructions: string;
  /** The tools exactly as tools/list shows them. */
  tools: readonly Tool[];
}

/**
 * The manifest of server `name` from its committed files, imported as JSON modules: `mcp/<name>/server.json`
 * (its instructions) and `mcp/<name>/tools.json` (its tools/list snapshot).
 */
export function manifestOf(name: string, server: { instructions: string }, tools: unknown[]): ServerManifest {
  return { name, instructions: server.instructions, tools: tools as Tool[] };
}

/** The capabilities the server declares, the same before and after the SDK is loaded. */
export function serverCapabilities(): ServerCapabilities {
  // Every server honours logging/setLevel (the SDK keeps the level per session); see sendLog.
  return { tools: { listChanged: false }, logging: {} };
}

/** The server's name and version as initialize reports them. */
export function serverInfo(name: string): Implementation {
  return { name: `${name}-mcp`, version: VERSION };
}
