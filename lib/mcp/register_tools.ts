/** Serves a checked tool table on an SDK server: tools/list with flat schemas, tools/call rendered. */
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type RequestHandlerExtra,
  type Server,
  type ServerNotification,
  type ServerRequest,
} from "./sdk.ts";
import { ToolError } from "./errors.ts";
import { renderError } from "./render.ts";
import { listedTools, type ProgressUpdate, type ToolDefinition } from "./tool.ts";

/** What a tools/call handler receives from the SDK besides the request. */
export type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Serves `byName` (from `toolTable`) on `server`. */
export function registerTools(
  server: Server,
  byName: ReadonlyMap<string, ToolDefinition>,
  /** `beforeCall` runs first in every call (the workspace asks for the client's roots there). */
  hooks: { beforeCall?: (extra: CallExtra) => void } = {},
): void {
  const tools = [...byName.values()];
  server.registerCapabilities({ tools: { listChanged: false } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listedTools(tools) }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    hooks.beforeCall?.(extra);
    const tool = byName.get(request.params.name);
    if (!tool) {
      const names = [...byName.keys()].join(", ");
      return renderError(
        new ToolError(
          "not_found",
          `Cannot call "${request.params.name}": no such tool; this server has ${names}`,
        ),
      );
    }
    const progressToken = request.params._meta?.progressToken;
    let step = 0;
    const send = (update: ProgressUpdate) => {
      if (progressToken === undefined) return;
      extra.sendNotification({ method: "notifications/progress", params: { progressToken, ...update } })
        .catch(() => {});
    };
    return tool.call(request.params.arguments, {
      signal: extra.signal,
      requestId: extra.requestId,
      progress(message, progress, total) {
        step = progress ?? step + 1;
        send({ progress: step, ...(total === undefined ? {} : { total }), message });
      },
      ...(progressToken === undefined ? {} : { relayProgress: send }),
    });
  });
}
