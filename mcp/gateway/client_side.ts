/**
 * The gateway as each downstream server's client: what a server asks of its client (roots, elicitation,
 * sampling) and tells it (log messages), answered through whatever the upstream side set, per server.
 * @module
 */
import {
  type CreateMessageRequest,
  CreateMessageRequestSchema,
  type CreateMessageResult,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
  ListRootsRequestSchema,
  type LoggingMessageNotification,
  LoggingMessageNotificationSchema,
  type Root,
} from "../../lib/mcp/sdk.ts";
import type { Client } from "../../lib/mcp/sdk_client.ts";
import { answerByRule, type ElicitationRule } from "./elicitation_hooks.ts";

/** A downstream log message, its logger prefixed by the server's name (`server` or `server/logger`). */
export type LogMessage = LoggingMessageNotification["params"];

/** Answers a downstream server's requests to the client: the gateway forwards them upstream. */
export interface UpstreamAsker {
  elicit(server: string, params: ElicitRequest["params"], signal: AbortSignal): Promise<ElicitResult>;
  sample(
    server: string,
    params: CreateMessageRequest["params"],
    signal: AbortSignal,
  ): Promise<CreateMessageResult>;
}

/** Which server a client talks to, and its elicitation hooks. */
export interface ServerIdentity {
  name: string;
  elicitation?: ElicitationRule[];
}

/** The answers every downstream client gives; set by the upstream side once it exists. */
export class ClientSide {
  readonly #logListeners = new Set<(message: LogMessage) => void>();
  #roots: () => Promise<Root[]> = () => Promise.resolve([]);
  #asker: UpstreamAsker = {
    elicit: () => Promise.resolve({ action: "decline" }),
    sample: (server) => Promise.reject(new Error(`Cannot sample for MCP server "${server}": no client`)),
  };

  /** Calls `cb` with each log message a downstream server sends (notifications/message). */
  onLog(cb: (message: LogMessage) => void): () => void {
    this.#logListeners.add(cb);
    return () => this.#logListeners.delete(cb);
  }

  /** Answers every downstream roots/list with `provider` (the gateway's upstream roots or workspace). */
  answerRoots(provider: () => Promise<Root[]>): void {
    this.#roots = provider;
  }

  /** Answers every downstream elicitation/create (no hook matching) and sampling/createMessage. */
  answerRequests(asker: UpstreamAsker): void {
    this.#asker = asker;
  }

  /** Installs the handlers on `client`, before it connects; `server()` is read at each request. */
  wire(client: Client, server: () => ServerIdentity): void {
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: await this.#roots() }));
    client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
      const { name, elicitation = [] } = server();
      const hooked = answerByRule(elicitation, request.params.message);
      return hooked
        ? Promise.resolve(hooked as ElicitResult)
        : this.#asker.elicit(name, request.params, extra.signal);
    });
    client.setRequestHandler(
      CreateMessageRequestSchema,
      (request, extra) => this.#asker.sample(server().name, request.params, extra.signal),
    );
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      const { name } = server();
      const { logger } = notification.params;
      const message = { ...notification.params, logger: logger ? `${name}/${logger}` : name };
      for (const listener of this.#logListeners) listener(message);
    });
  }
}
