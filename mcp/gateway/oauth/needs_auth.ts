/** The error a remote server's call or connection ends with when the user must authorise the gateway. */
import { ToolError } from "../../../lib/mcp/errors.ts";

/** The command that runs the browser step for server `name`. */
export function authCommand(name: string): string {
  return `gateway-mcp auth ${/^[A-Za-z0-9_.-]+$/.test(name) ? name : JSON.stringify(name)}`;
}

/**
 * `unavailable`: the server wants OAuth and the gateway has no usable token. The gateway never opens a
 * browser on its own (it serves an agent, and a tool call must not wait on a person), so it names the
 * command that does.
 */
export class NeedsAuthError extends ToolError {
  constructor(readonly server: string, why = "it needs authorisation", options?: ErrorOptions) {
    super(
      "unavailable",
      `Cannot connect to MCP server "${server}": ${why}; run "${
        authCommand(server)
      }" in a terminal, then retry`,
      options,
    );
  }
}
