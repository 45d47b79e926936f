/** The SDK server of a {@link ServerSpec}: its tools served and the client's workspace roots adopted. */
import {
  AjvJsonSchemaValidator,
  type JsonSchemaType,
  type JsonSchemaValidator,
  ListRootsResultSchema,
  RootsListChangedNotificationSchema,
  Server,
} from "./sdk.ts";
import { registerTools } from "./register_tools.ts";
import type { ServerSpec } from "./server.ts";
import { serverCapabilities, serverInfo } from "./manifest.ts";
import { log } from "../log.ts";
import type { ToolDefinition } from "./tool.ts";

/**
 * How long a tool waits for the client's roots before it works in the configured workspace (MCP_WORKSPACE
 * or the cwd). A client that declares roots but never answers roots/list would otherwise hold every
 * workspace tool for the SDK's 60 s request timeout. The answer is still adopted if it comes later.
 */
export const ROOTS_PATIENCE_MS = 2_000;

/** Builds the SDK server for `spec` and its checked tool table. No I/O happens here. */
export function buildServer(spec: ServerSpec, byName: ReadonlyMap<string, ToolDefinition>): Server {
  const server = new Server(serverInfo(spec.name), {
    capabilities: serverCapabilities(),
    instructions: spec.instructions,
    jsonSchemaValidator: new LazyJsonSchemaValidator(),
  });
  const workspace = spec.workspace;
  // The client's roots are asked for as part of the next tool call after initialize or roots/list_changed,
  // not at once: over HTTP a request outside a call travels on a GET stream the client may not have opened
  // yet, and would be lost. Tools wait for the answer (Workspace.ready, resolveInside) as before.
  let rootsStale = false;
  // Said once per server: a client that never answers would otherwise repeat it on every roots change.
  let rootsSilenceLogged = false;
  const markRootsStale = () => {
    rootsStale = Boolean(server.getClientCapabilities()?.roots);
  };
  registerTools(server, byName, {
    beforeCall(extra) {
      if (!workspace || !rootsStale) return;
      rootsStale = false;
      workspace.adoptClientRoots(
        async () =>
          (await extra.sendRequest({ method: "roots/list" }, ListRootsResultSchema)).roots.map((root) =>
            root.uri
          ),
        {
          ms: ROOTS_PATIENCE_MS,
          onTimeout() {
            if (rootsSilenceLogged) return;
            rootsSilenceLogged = true;
            log.info(
              `${spec.name}: the client declared roots but did not answer roots/list within ${
                ROOTS_PATIENCE_MS / 1000
              } s; the tools work in the configured workspace (${
                workspace.roots[0] ?? "none"
              }) until it does`,
            );
          },
        },
      );
    },
  });
  if (workspace) {
    server.oninitialized = markRootsStale;
    server.setNotificationHandler(RootsListChangedNotificationSchema, markRootsStale);
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
