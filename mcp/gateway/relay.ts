/** What flows between the upstream client and the downstream servers besides calls: logs, roots, questions. */
import { pathToFileURL } from "node:url";
import { type McpServerHandle, sendLog } from "../../lib/mcp/server.ts";
import { ErrorCode, McpError, type Root, RootsListChangedNotificationSchema } from "../../lib/mcp/sdk.ts";
import { log } from "../../lib/log.ts";
import { KeyedLock } from "../../lib/sync/keyed_lock.ts";
import type { Downstreams } from "./downstream.ts";

/**
 * Relays downstream log messages upstream (the SDK drops those below the client's logging/setLevel),
 * answers downstream roots/list from the upstream client's roots (`workspaceRoots` when it has none), and
 * passes the upstream roots/list_changed down (also once at initialize, when the client's roots replace
 * the workspace a downstream server may have asked for before). Elicitation and sampling go to the upstream
 * client when it declared them (elicitations one at a time, in order), and are cancelled with the downstream
 * request; otherwise an elicitation is
 * declined and a sampling request refused, with the reason in the gateway's log or the error.
 */
export function relayUpstream(
  downstreams: Downstreams,
  handle: McpServerHandle,
  workspaceRoots: readonly string[],
): void {
  const { server } = handle;
  const queue = new KeyedLock();
  downstreams.clientSide.onLog((message) => sendLog(server, message).catch(() => {}));
  const fallback: Root[] = workspaceRoots.map((path) => ({ uri: pathToFileURL(path).href }));
  downstreams.clientSide.answerRoots(async () =>
    server.getClientCapabilities()?.roots ? (await server.listRoots()).roots : fallback
  );
  downstreams.clientSide.answerRequests({
    elicit: (name, params, signal) => {
      if (server.getClientCapabilities()?.elicitation) {
        // One question at a time, in the order they came, whichever server asks.
        return queue.run("elicitation", () => {
          signal.throwIfAborted();
          return server.elicitInput(params, { signal });
        });
      }
      log.info(
        `gateway: declined an elicitation of MCP server "${name}": the client does not support elicitation`,
      );
      return Promise.resolve({ action: "decline" });
    },
    sample: async (name, params, signal) => {
      if (server.getClientCapabilities()?.sampling) return await server.createMessage(params, { signal });
      throw new McpError(
        ErrorCode.InvalidRequest,
        `Cannot sample for MCP server "${name}": the gateway's client does not support sampling`,
      );
    },
  });
  const changed = () => void downstreams.rootsChanged();
  server.setNotificationHandler(RootsListChangedNotificationSchema, changed);
  server.oninitialized = () => {
    if (server.getClientCapabilities()?.roots) changed();
  };
}
