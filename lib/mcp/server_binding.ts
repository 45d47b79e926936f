/** The SDK server of a {@link ServerSpec}: its tools served and the client's workspace roots adopted. */
import {
  AjvJsonSchemaValidator,
  type JsonSchemaType,
  type JsonSchemaValidator,
  RootsListChangedNotificationSchema,
  Server,
} from "./sdk.ts";
import { registerTools } from "./register_tools.ts";
import { serverCapabilities, serverInfo, type ServerSpec } from "./server.ts";
import type { ToolDefinition } from "./tool.ts";

/** Builds the SDK server for `spec` and its checked tool table. No I/O happens here. */
export function buildServer(spec: ServerSpec, byName: ReadonlyMap<string, ToolDefinition>): Server {
  const server = new Server(serverInfo(spec), {
    capabilities: serverCapabilities(spec),
    instructions: spec.instructions,
    jsonSchemaValidator: new LazyJsonSchemaValidator(),
  });
  registerTools(server, byName);
  const workspace = spec.workspace;
  if (workspace) {
    const adoptRoots = () => {
      if (!server.getClientCapabilities()?.roots) return;
      workspace.adoptClientRoots(async () => (await server.listRoots()).roots.map((root) => root.uri));
    };
    server.oninitialized = adoptRoots;
    server.setNotificationHandler(RootsListChangedNotificationSchema, adoptRoots);
  }
  return server;
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
