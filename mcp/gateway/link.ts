/**
 * One connection to a downstream endpoint, shared by every config entry with that endpoint: its state, its
 * last tool list, its calls in flight and the upstream requests they serve. Plain data and small helpers;
 * connector.ts opens and closes links, link_health.ts moves them between up and down.
 * @module
 */
import type { ClientCapabilities, RequestId, Tool } from "../../lib/mcp/sdk.ts";
import type { Connection } from "./connect.ts";
import { secretsOf } from "./redact.ts";
import { LogBudget } from "./stderr_lines.ts";
import type { ServerConfig } from "./types.ts";

/** One connection, shared by every config entry with the same endpoint. */
export interface Link {
  configs: ServerConfig[];
  /** What the gateway declares to this server (fixed for the connection: a change means a new link). */
  capabilities: ClientCapabilities;
  state: "connecting" | "up" | "down";
  reason?: string;
  /** Down until the user authorises the gateway (`gateway-mcp auth <name>`). */
  needsAuth?: boolean;
  connection?: Connection;
  connecting?: Promise<void>;
  /** Stops the connect under way (retire, close): nothing waits on a server that never answers. */
  stopConnecting?: AbortController;
  /** The last tools/list, kept while the server is down so search still finds its tools. */
  tools: Tool[];
  instructions?: string;
  failures: number;
  retryAt: number;
  closing: boolean;
  /** Calls running on this link's connection: a retired link closes once they settle. */
  inflight: Set<Promise<unknown>>;
  /**
   * Those calls, oldest first: the upstream request each serves (when known), and a signal that aborts when
   * it ends, which ends what the server asked upstream on its behalf (a question must not outlive its call).
   */
  calls: LinkCall[];
  /** How much of its stderr the log still takes: shared by its restarts, so a crash loop cannot flood it. */
  stderrBudget: LogBudget;
  /** The malformed tools it listed that were logged already: each is said once, not at every re-list. */
  skipsLogged: Set<string>;
}

/** A link for `configs` (entries sharing one endpoint), not yet connected. */
export function newLink(configs: ServerConfig[], capabilities: ClientCapabilities, now: () => number): Link {
  return {
    configs,
    capabilities,
    state: "connecting",
    tools: [],
    failures: 0,
    retryAt: 0,
    closing: false,
    inflight: new Set(),
    calls: [],
    stderrBudget: new LogBudget(now),
    skipsLogged: new Set(),
  };
}

/** One call in flight on a link. */
export interface LinkCall {
  id?: RequestId;
  ended: AbortSignal;
}

/** Runs `call` as one of the link's calls in flight, related to the upstream request `origin`. */
export async function trackCall<T>(link: Link, origin: RequestId | undefined, call: Promise<T>): Promise<T> {
  const ended = new AbortController();
  const entry: LinkCall = { ...(origin === undefined ? {} : { id: origin }), ended: ended.signal };
  link.inflight.add(call);
  link.calls.push(entry);
  try {
    return await call;
  } finally {
    link.inflight.delete(call);
    link.calls.splice(link.calls.indexOf(entry), 1);
    ended.abort(new Error("the call it was asked for ended"));
  }
}

/**
 * The call a server's request (a question, a log message) belongs to, as its upstream id and the signal of
 * its end: the server does not say, so the oldest in flight, preferring one made for an upstream request.
 */
export function callIdentity(link: Link): { origin?: RequestId; callEnded?: AbortSignal } {
  const call = link.calls.find((entry) => entry.id !== undefined) ?? link.calls[0];
  if (!call) return {};
  return { ...(call.id === undefined ? {} : { origin: call.id }), callEnded: call.ended };
}

/** What the link's server must never echo back: its entries' secrets, and the connection's OAuth tokens. */
export function linkSecrets(link: Link, connection?: Connection): string[] {
  return [...link.configs.flatMap(secretsOf), ...connection?.secrets() ?? []];
}
