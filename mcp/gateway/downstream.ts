/**
 * The gateway's client side: one connection per distinct downstream endpoint (link.ts, link_table.ts),
 * the merged tool catalog (catalog.ts), health (link_health.ts), calls with timeouts and cancellation
 * (link_call.ts, call.ts), and restarts with backoff and a circuit breaker (connector.ts, retry_policy.ts).
 * @module
 */
import { log as defaultLog } from "../../lib/log.ts";
import { ToolError } from "../../lib/mcp/errors.ts";
import type { CallToolResult, ClientCapabilities } from "../../lib/mcp/sdk.ts";
import { CALL_CEILING_MS, callOnLink, type CallOptions } from "./link_call.ts";
import { ClientSide } from "./client_side.ts";
import { Connector } from "./connector.ts";
import { OnceLog } from "./log_once.ts";
import { DEFAULT_RETRY, type RetryOptions } from "./retry_policy.ts";
import { buildCatalog, type Route } from "./catalog.ts";
import type { CatalogTool, ServerConfig, ServerStatus } from "./types.ts";
import type { Link } from "./link.ts";
import { LinkTable } from "./link_table.ts";
import { linkStatus } from "./link_health.ts";
import { planReload, type ReloadReport } from "./reload.ts";
import { defaultRemoteOptions, type RemoteOptions } from "./remote.ts";

export type { ReloadReport } from "./reload.ts";
export { CALL_CEILING_MS, type CallOptions } from "./link_call.ts";

/** What Downstreams needs from outside. */
export interface DownstreamDeps {
  now?: () => number;
  log?: { info(message: string): void; error(message: string, detail?: unknown): void };
  retry?: RetryOptions;
  /** The hard ceiling on one call, progress or not (default {@link CALL_CEILING_MS}). */
  callCeilingMs?: number;
  /** Remote servers: where OAuth tokens live (default: the user's config folder). */
  remote?: RemoteOptions;
}

/**
 * Every configured downstream server behind one catalog; `start()` connects them all in parallel, declaring
 * the client capabilities given to `declare()` (none before).
 */
export class Downstreams implements AsyncDisposable {
  #configs: ServerConfig[];
  #started = false;
  readonly #links: LinkTable;
  readonly #deps: Required<DownstreamDeps>;
  readonly #listeners = new Set<() => void>();
  /** What each downstream client answers its server (roots, elicitation, sampling) and relays (logs). */
  readonly clientSide = new ClientSide();
  readonly #connector: Connector;
  /** Every rebuild finds the same collisions again: each is logged once. */
  readonly #collisionLog = new OnceLog((line) => this.#deps.log.info(line));
  #routes = new Map<string, Route<Link>>();
  #catalog: CatalogTool[] = [];

  constructor(configs: ServerConfig[], deps: DownstreamDeps = {}) {
    this.#configs = configs;
    this.#deps = {
      now: () => Date.now(),
      log: defaultLog,
      retry: DEFAULT_RETRY,
      ...deps,
      callCeilingMs: deps.callCeilingMs ?? CALL_CEILING_MS,
      remote: deps.remote ?? defaultRemoteOptions(),
    };
    const { now, log } = this.#deps;
    this.#connector = new Connector({
      ...this.#deps,
      clientSide: this.clientSide,
      toolsChanged: () => this.#rebuild(),
    });
    this.#links = new LinkTable(configs, now, (message) => log.info(message));
  }

  /**
   * Sets the upstream client's capabilities, which decide what each downstream connection declares. Call it
   * before start(); afterwards, each connection whose declaration changes is replaced (its calls in flight
   * finish on the old one).
   */
  async declare(upstream: ClientCapabilities): Promise<void> {
    await this.#regroup(this.#configs, upstream);
  }

  /** Connects every enabled server in parallel; resolves once each is up or down. */
  async start(): Promise<void> {
    this.#started = true;
    await Promise.allSettled(this.#links.all().map((link) => this.#connector.connect(link)));
  }

  /** Reconnects every server that is down and past its backoff (one never up has no tool to call). */
  async retryDown(): Promise<void> {
    const now = this.#deps.now();
    const due = this.#links.all().filter((link) =>
      link.state === "down" && !link.closing && link.retryAt <= now
    );
    await Promise.allSettled(due.map((link) => this.#connector.connect(link)));
  }
  /** Resolves once `name` is up or failed again: its connect in flight, or a new one if it is due; else at once. */
  async revive(name: string): Promise<void> {
    const config = this.#configs.find((entry) => entry.name === name && entry.enabled);
    const link = config && this.#links.linkOf(config);
    if (!link || link.closing || link.state === "up" || this.#connector.closed) return;
    if (link.connecting || link.retryAt <= this.#deps.now()) await this.#connector.connect(link);
  }

  /** The visible tools of every server that was ever up (a down server keeps its last list). */
  catalog(): CatalogTool[] {
    return this.#catalog;
  }

  /** Health of each configured server, in config order. */
  status(): ServerStatus[] {
    return this.#configs.map((config) => {
      if (!config.enabled) return { name: config.name, state: "disabled", tools: 0 };
      const tools = this.#catalog.filter((tool) => tool.server === config.name).length;
      return linkStatus(config, this.#links.linkOf(config), tools);
    });
  }

  /** The pid of the child serving `name`, while it runs (shared entries report the same pid). */
  pidOf(name: string): number | undefined {
    const config = this.#configs.find((entry) => entry.name === name);
    return config?.enabled ? this.#links.linkOf(config).connection?.pid : undefined;
  }

  /** Calls `cb` whenever the catalog changes (a server came up or sent tools/list_changed). */
  onCatalogChanged(cb: () => void): () => void {
    this.#listeners.add(cb);
    return () => this.#listeners.delete(cb);
  }

  /**
   * Applies a new config (hot reload). An entry whose endpoint (command, args, cwd, env) is unchanged keeps
   * its connection and its calls in flight, even when its filters, descriptions or timeouts changed: those
   * only re-index. A new endpoint gets a new connection; an endpoint no entry uses any more is retired: its
   * calls in flight finish on it (each bounded by its own timeout), then it closes. Returns at once: new
   * connections connect meanwhile (a server that never answers must not hold back the next reload; await
   * settled() to see them up or down); the catalog is rebuilt and onCatalogChanged fires.
   */
  reconfigure(configs: ServerConfig[]): ReloadReport {
    const report = planReload(this.#configs, configs);
    this.#regroup(configs).catch((error) =>
      this.#deps.log.error("gateway: cannot connect after a reload", error)
    );
    return report;
  }

  /** Resolves once no server is connecting (after start, a reload or a retry). */
  settled(): Promise<void> {
    return this.#links.settled();
  }

  /** Tells every connected downstream server that the roots changed (notifications/roots/list_changed). */
  async rootsChanged(): Promise<void> {
    await Promise.allSettled(
      this.#links.all()
        .filter((link) => link.capabilities.roots)
        .map((link) => link.connection?.client.sendRootsListChanged()),
    );
  }

  /** Calls a downstream tool by its qualified name; returns the downstream result as it came. */
  async call(
    qualifiedName: string,
    args: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<CallToolResult> {
    const route = this.#routes.get(qualifiedName);
    if (!route) {
      throw new ToolError(
        "not_found",
        `Cannot call "${qualifiedName}": no such tool in the gateway catalog; find names with gateway_search`,
      );
    }
    const connection = await this.#connector.ensureUp(route.link, qualifiedName);
    return await callOnLink(route, connection, args, { ...options, ceilingMs: this.#deps.callCeilingMs });
  }

  /** Closes every connection: children exit, builtins run their cleanup. */
  close(): Promise<void> {
    return this.#connector.close(this.#links.all());
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** Links for `configs`: unchanged ones kept, gone ones retired, new ones connected (once started). */
  async #regroup(configs: ServerConfig[], upstream?: ClientCapabilities): Promise<void> {
    if (this.#connector.closed) return;
    const { fresh, gone } = this.#links.regroup(configs, upstream);
    for (const link of gone) this.#connector.retire(link);
    this.#configs = configs;
    this.#rebuild();
    if (this.#started) await Promise.allSettled(fresh.map((link) => this.#connector.connect(link)));
  }

  #rebuild(): void {
    const sources = this.#configs.filter((config) => config.enabled).map((config) => {
      const link = this.#links.linkOf(config);
      return { config, link, tools: link.tools, instructions: link.instructions };
    });
    const { catalog, routes, collisions } = buildCatalog(sources);
    for (const collision of collisions) this.#collisionLog.say(`gateway: name collision: ${collision}`);
    this.#catalog = catalog;
    this.#routes = routes;
    for (const listener of this.#listeners) listener();
  }
}
