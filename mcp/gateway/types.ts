/**
 * The shapes the gateway's parts share: a parsed config entry, a downstream tool in the catalog, a search
 * hit, a server's health. Plain data, no I/O.
 * @module
 */
import type { ElicitationRule } from "./elicitation_hooks.ts";

/** One downstream server as the config declares it, after parsing, `${env:VAR}` expansion and checks. */
export interface ServerConfig {
  /** The config key, as written. */
  name: string;
  /** The name's part in `<server>__<tool>`: `[^a-zA-Z0-9_-]` → `_`. */
  prefix: string;
  /** How to reach it: a process over stdio, or one of this project's servers in the gateway's process. */
  transport:
    | { kind: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd?: string }
    | { kind: "builtin"; server: string }
    | RemoteTransport;
  enabled: boolean;
  /** Connect timeout, ms (default 30,000). */
  connectTimeoutMs: number;
  /** Call timeout, ms, for this server's tools unless a tool says otherwise. */
  callTimeoutMs: number;
  /** Call timeouts, ms, of single tools (by downstream tool name), over callTimeoutMs. */
  toolTimeoutsMs?: Record<string, number>;
  /** Tool name globs; a tool is shown when it matches allow (or allow is empty) and no deny. */
  tools: { allow: string[]; deny: string[] };
  /** Description overrides by downstream tool name. */
  descriptions: Record<string, string>;
  /** Rules that answer this server's elicitations before the client is asked (first match wins). */
  elicitation?: ElicitationRule[];
}

/** A server reached over HTTP: Streamable HTTP, SSE, or Streamable HTTP falling back to SSE ("auto"). */
export interface RemoteTransport {
  kind: "remote";
  url: string;
  /** Sent with every request to the server's origin (never to an authorization server). */
  headers: Record<string, string>;
  protocol: "auto" | "http" | "sse";
  /** A client registered beforehand, for authorization servers without dynamic registration. */
  oauth: { clientId?: string; clientSecret?: string; scope?: string };
  /**
   * The config file the entry is written in (absolute): with the entry's name and URL, whose OAuth tokens
   * are whose (oauth/token_store.ts).
   */
  configFile?: string;
}

/** A parsed config: servers in file order, and where it came from (for error messages). */
export interface GatewayConfig {
  /** Absolute path of the config file, or undefined when none was given. */
  file?: string;
  servers: ServerConfig[];
}

/** A downstream tool as the gateway indexes and shows it. */
export interface CatalogTool {
  /** `<server>__<tool>`, ≤ 64 characters, unique in the catalog. */
  qualifiedName: string;
  /** The config name of its server. */
  server: string;
  /** The server's own `instructions`, when it sent any. */
  serverInstructions?: string;
  /** The tool's name downstream, as the server spells it. */
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: {
    title?: string;
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
}

/** One ranked result of a search. */
export interface SearchHit {
  tool: CatalogTool;
  score: number;
}

/** A downstream server's health, for gateway_search, instructions and doctor. */
export interface ServerStatus {
  name: string;
  state: "connecting" | "up" | "down" | "disabled";
  /** Why it is down: `MCP server "db" timed out after 30000ms`, the spawn error, ... */
  reason?: string;
  tools: number;
  /** The server's own instructions, for the gateway's instructions. */
  instructions?: string;
  /** Down because it needs the user to authorise the gateway (`gateway-mcp auth <name>`). */
  needsAuth?: boolean;
  /** Config names sharing this server's connection (same endpoint), when any. */
  sharedWith?: string[];
}
