/** The gateway server: four small tools in front of every downstream server's tools. */
import { createMcpServer, type McpServerHandle } from "../../lib/mcp/server.ts";
import { type Backend, createTools, type Finder } from "./tools.ts";
import { gatewayInstructions } from "./instructions.ts";

/** What the gateway needs: the downstream side, a ranking, and what to do on close. */
export interface GatewayOptions {
  backend: Backend;
  finder: Finder;
  resultBudgetChars?: number;
  /** Closes the downstream connections (and children) when the gateway closes. */
  cleanup?: () => void | Promise<void>;
}

/** Builds the gateway; its instructions name the servers known at this moment. No I/O here. */
export function createServer(options: GatewayOptions): McpServerHandle {
  return createMcpServer({
    name: "gateway",
    instructions: gatewayInstructions(options.backend.status()),
    tools: createTools(options),
    // Downstream log messages are relayed (see boot.ts).
    cleanup: options.cleanup,
  });
}
