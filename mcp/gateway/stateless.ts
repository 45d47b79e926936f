/**
 * Stateless HTTP builds the gateway, and every server it hosts, per request, and closes them when the answer
 * is sent: the shell builtin would kill each job at the end of the call that started it, and no later call
 * could find it (shell-mcp itself refuses --stateless). A gateway hosting it refuses to run stateless.
 * @module
 */
import { ConfigError } from "./config_fields.ts";
import type { GatewayConfig } from "./types.ts";

/** Builtins whose state lives between calls. */
const STATEFUL_BUILTINS = ["shell"];

/** Throws ConfigError when `config` hosts a stateful builtin. */
export function refuseStatelessHosting(config: GatewayConfig): void {
  const entry = config.servers.find((server) =>
    server.enabled && server.transport.kind === "builtin" &&
    STATEFUL_BUILTINS.includes(server.transport.server)
  );
  if (!entry || entry.transport.kind !== "builtin") return;
  throw new ConfigError(
    `${config.file ?? "the config"}: mcpServers.${entry.name}: cannot host the ${entry.transport.server} ` +
      "builtin stateless: each request gets its own gateway, closed with the answer, so every job would be " +
      "killed when the call that started it ends; drop --stateless (and MCP_HTTP_STATELESS) and let clients " +
      "keep a session, or disable this entry",
  );
}
