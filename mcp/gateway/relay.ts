/** What flows between the upstream client and the downstream servers besides calls: logs, roots, questions. */
import { pathToFileURL } from "node:url";
import type { McpServerHandle } from "../../lib/mcp/server.ts";
import {
  ErrorCode,
  type LoggingLevel,
  McpError,
  type RequestId,
  type Root,
  RootsListChangedNotificationSchema,
  SetLevelRequestSchema,
} from "../../lib/mcp/sdk.ts";
import { log } from "../../lib/log.ts";
import { ROOTS_PATIENCE_MS } from "../../lib/mcp/server_binding.ts";
import { AskQueue } from "./ask_queue.ts";
import { supportsFormElicitation } from "./capabilities.ts";
import { CALL_CEILING_MS, type Downstreams } from "./downstream.ts";

/**
 * Relays downstream log messages upstream, related to the call in flight on their server if any, and
 * dropped below the client's logging/setLevel; answers downstream roots/list from the upstream client's roots (`workspaceRoots` if it has none or asking fails), and
 * passes the upstream roots/list_changed down. Elicitation and sampling go to the upstream client when it
 * declared them (elicitations one at a time, in order), related to the upstream call that caused them, and
 * are cancelled with the downstream request; otherwise an elicitation is declined and a sampling request
 * refused, with the reason in the gateway's log or the error. Nothing is asked upstream before the client's
 * `initialized`.
 */
export function relayUpstream(
  downstreams: Downstreams,
  handle: McpServerHandle,
  workspaceRoots: readonly string[],
): void {
  const { server } = handle;
  const queue = new AskQueue();
  const initialized = Promise.withResolvers<void>();
  server.oninitialized = () => initialized.resolve();
  // Questions wait as long as the client takes to answer: the downstream server's own timeout (or its
  // cancellation, which cancels ours) decides, or the end of the call they were asked for (client_side.ts),
  // under the gateway's call ceiling.
  const asking = (signal: AbortSignal, origin: RequestId | undefined) => ({
    signal,
    timeout: CALL_CEILING_MS,
    // Over Streamable HTTP this puts the request on the stream of the call that caused it.
    ...(origin === undefined ? {} : { relatedRequestId: origin }),
  });
  relayLogs(downstreams, handle);
  const fallback: Root[] = workspaceRoots.map((path) => ({ uri: pathToFileURL(path).href }));
  // A client that declares roots but never answers would hold each downstream question for the SDK's
  // 60 s: ask with the servers' short patience, answer with the workspace, and say so once.
  let silenceLogged = false;
  downstreams.clientSide.answerRoots(async () => {
    await initialized.promise;
    if (!server.getClientCapabilities()?.roots) return fallback;
    try {
      return (await server.listRoots(undefined, { timeout: ROOTS_PATIENCE_MS })).roots;
    } catch (error) {
      if (!(error instanceof McpError && error.code === ErrorCode.RequestTimeout)) {
        log.error("gateway: cannot list the client's roots; answering with the workspace", error);
      } else if (!silenceLogged) {
        silenceLogged = true;
        log.info(
          `gateway: the client declared roots but did not answer roots/list within ${
            ROOTS_PATIENCE_MS / 1000
          } s; downstream servers get the workspace (${workspaceRoots.join(", ") || "none"}) instead`,
        );
      }
      return fallback;
    }
  });
  downstreams.clientSide.answerRequests({
    elicit: (params, { server: name, signal, origin }) => {
      if (supportsFormElicitation(server.getClientCapabilities())) {
        // One question at a time, in the order they came, whichever server asks.
        return queue.run(signal, async () => {
          await initialized.promise;
          signal.throwIfAborted();
          return await whilePending(signal, (own) => server.elicitInput(params, asking(own, origin)));
        });
      }
      log.info(
        `gateway: declined an elicitation of MCP server "${name}" that no hook answered: the client does not support elicitation`,
      );
      return Promise.resolve({ action: "decline" });
    },
    sample: async (params, { server: name, signal, origin }) => {
      if (server.getClientCapabilities()?.sampling) {
        await initialized.promise;
        return await whilePending(signal, (own) => server.createMessage(params, asking(own, origin)));
      }
      throw new McpError(
        ErrorCode.InvalidRequest,
        `Cannot sample for MCP server "${name}": the gateway's client does not support sampling`,
      );
    },
  });
  server.setNotificationHandler(RootsListChangedNotificationSchema, () => void downstreams.rootsChanged());
}

/**
 * Runs `ask` with a signal that follows `signal` only until `ask` settles: the SDK never stops listening to
 * a request's signal, and would send notifications/cancelled for a question answered long before when the
 * call it was asked for ends.
 */
async function whilePending<T>(signal: AbortSignal, ask: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const own = new AbortController();
  const forward = () => own.abort(signal.reason);
  if (signal.aborted) forward();
  else signal.addEventListener("abort", forward, { once: true });
  try {
    return await ask(own.signal);
  } finally {
    signal.removeEventListener("abort", forward);
  }
}

/** RFC 5424 severities, least first, as MCP orders them. */
const LEVELS: readonly LoggingLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

/**
 * Downstream log messages go upstream at or above the client's logging/setLevel. The level is kept here,
 * not by the SDK, since its sendLoggingMessage cannot relate a message to the call it belongs to.
 */
function relayLogs(downstreams: Downstreams, { server }: McpServerHandle): void {
  let threshold = 0;
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    threshold = Math.max(0, LEVELS.indexOf(request.params.level));
    return {};
  });
  downstreams.clientSide.onLog((message, origin) => {
    if (LEVELS.indexOf(message.level) < threshold) return;
    server.notification(
      { method: "notifications/message", params: message },
      origin === undefined ? {} : { relatedRequestId: origin },
    ).catch(() => {});
  });
}
