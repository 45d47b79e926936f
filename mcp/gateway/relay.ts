/** What flows between the upstream client and the downstream servers outside a call: logs and roots. */
import { pathToFileURL } from "node:url";
import type { McpServerHandle } from "../../lib/mcp/server.ts";
import { type Root, RootsListChangedNotificationSchema } from "../../lib/mcp/sdk.ts";
import type { Downstreams } from "./downstream.ts";

/**
 * Relays downstream log messages upstream (the SDK drops those below the client's logging/setLevel),
 * answers downstream roots/list from the upstream client's roots (`workspaceRoots` when it has none), and
 * passes the upstream roots/list_changed down (also once at initialize, when the client's roots replace
 * the workspace a downstream server may have asked for before).
 */
export function relayUpstream(
  downstreams: Downstreams,
  handle: McpServerHandle,
  workspaceRoots: readonly string[],
): void {
  const { server } = handle;
  downstreams.onLog((message) => server.sendLoggingMessage(message).catch(() => {}));
  const fallback: Root[] = workspaceRoots.map((path) => ({ uri: pathToFileURL(path).href }));
  downstreams.answerRoots(async () =>
    server.getClientCapabilities()?.roots ? (await server.listRoots()).roots : fallback
  );
  const changed = () => void downstreams.rootsChanged();
  server.setNotificationHandler(RootsListChangedNotificationSchema, changed);
  server.oninitialized = () => {
    if (server.getClientCapabilities()?.roots) changed();
  };
}
