/** Builds an MCP server from a tool table: the shared shape every `mcp/<name>/server.ts` returns. */
import {
  AjvJsonSchemaValidator,
  type JsonSchemaType,
  type JsonSchemaValidator,
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
  /** Declares the `logging` capability: the server relays log messages (and honours logging/setLevel). */
  logging?: boolean;
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
      capabilities: { tools: {}, ...(spec.logging ? { logging: {} } : {}) },
      instructions: spec.instructions,
      jsonSchemaValidator: new LazyJsonSchemaValidator(),
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
 * The SDK's default validator builds Ajv with its formats in the Server constructor, a cost every cold
 * start paid; only a form elicitation's answer is ever validated, so Ajv is built at that first use.
 */
class LazyJsonSchemaValidator {
  #ajv?: AjvJsonSchemaValidator;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    this.#ajv ??= new AjvJsonSchemaValidator();
    return this.#ajv.getValidator<T>(schema);
  }
}
