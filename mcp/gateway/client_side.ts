/**
 * The gateway as each downstream server's client: what a server asks of its client (roots, elicitation,
 * sampling) and tells it (log messages), answered through whatever the upstream side set, per server.
 * @module
 */
import {
  type ClientCapabilities,
  type CreateMessageRequest,
  CreateMessageRequestSchema,
  type CreateMessageResult,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
  ListRootsRequestSchema,
  type LoggingMessageNotification,
  LoggingMessageNotificationSchema,
  type RequestId,
  type Root,
} from "../../lib/mcp/sdk.ts";
import type { Client } from "../../lib/mcp/sdk_client.ts";
import { answerByRule, type ElicitationRule } from "./elicitation_hooks.ts";

/** A downstream log message, its logger prefixed by the server's name (`server` or `server/logger`). */
export type LogMessage = LoggingMessageNotification["params"];

/** Who asks: the server, the downstream request's signal, and the upstream call it belongs to. */
export interface AskContext {
  server: string;
  signal: AbortSignal;
  /** The id of the upstream tools/call in flight on that server (the oldest, when several are). */
  origin?: RequestId;
}

/** Answers a downstream server's requests to the client: the gateway forwards them upstream. */
export interface UpstreamAsker {
  elicit(params: ElicitRequest["params"], context: AskContext): Promise<ElicitResult>;
  sample(params: CreateMessageRequest["params"], context: AskContext): Promise<CreateMessageResult>;
}

/** Which server a client talks to, its elicitation hooks, and the upstream call now in flight on it. */
export interface ServerIdentity {
  name: string;
  elicitation?: ElicitationRule[];
  origin?: RequestId;
  /** Aborts when that call ends: what was asked on its behalf is withdrawn then. */
  callEnded?: AbortSignal;
  /**
   * Takes the server's secrets out of what it sends upstream: a log message (`log`, redacted as a failure
   * text) or a question (`request`: elicitation, sampling).
   */
  redact?: <T>(value: T, kind: "log" | "request") => T;
}

const asIs = <T>(value: T): T => value;

/** The answers every downstream client gives; set by the upstream side once it exists. */
export class ClientSide {
  readonly #logListeners = new Set<(message: LogMessage, origin?: RequestId) => void>();
  #roots: () => Promise<Root[]> = () => Promise.resolve([]);
  #asker: UpstreamAsker = {
    elicit: () => Promise.resolve({ action: "decline" }),
    sample: (_, { server }) =>
      Promise.reject(new Error(`Cannot sample for MCP server "${server}": no client`)),
  };

  /**
   * Calls `cb` with each log message a downstream server sends (notifications/message), and the upstream
   * call in flight on that server, if any.
   */
  onLog(cb: (message: LogMessage, origin?: RequestId) => void): () => void {
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

  /**
   * Installs the handlers on `client`, before it connects: those of the `declared` capabilities only (the
   * SDK refuses the others). `server()` is read at each request.
   */
  wire(client: Client, server: () => ServerIdentity, declared: ClientCapabilities): void {
    const context = (request: AbortSignal): AskContext => {
      const { name, origin, callEnded } = server();
      // A question ends with its downstream request or with the call it was asked for, whichever first: a
      // server that never withdraws the question of a cancelled call must not keep the user (and the
      // questions of every other server, asked one at a time) waiting.
      const signal = callEnded ? AbortSignal.any([request, callEnded]) : request;
      return { server: name, signal, ...(origin === undefined ? {} : { origin }) };
    };
    if (declared.roots) {
      client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: await this.#roots() }));
    }
    if (declared.elicitation) {
      client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
        const hooked = answerByRule(server().elicitation ?? [], request.params.message);
        const redact = server().redact ?? asIs;
        return hooked
          ? Promise.resolve(hooked as ElicitResult)
          : this.#asker.elicit(redact(request.params, "request"), context(extra.signal));
      });
    }
    if (declared.sampling) {
      client.setRequestHandler(
        CreateMessageRequestSchema,
        (request, extra) =>
          this.#asker.sample((server().redact ?? asIs)(request.params, "request"), context(extra.signal)),
      );
    }
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      const { name, origin, redact = asIs } = server();
      const params = redact(notification.params, "log");
      const message = { ...params, logger: params.logger ? `${name}/${params.logger}` : name };
      for (const listener of this.#logListeners) listener(message, origin);
    });
  }
}
