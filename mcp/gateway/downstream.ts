/**
 * The gateway's client side: one connection per distinct downstream endpoint, the merged tool catalog,
 * health, calls with timeouts and cancellation, and restarts with backoff and a circuit breaker.
 *
 * Children and a gateway that dies: close() ends each child's stdin, then SIGTERMs and SIGKILLs it (the
 * SDK's StdioClientTransport). If the gateway is SIGKILLed nothing of it runs: its children see stdin EOF
 * (this project's servers exit on that), and on Linux a small watchdog process (lib/process/watchdog.ts)
 * kills every process carrying this gateway's marker in its environment, a foreign server that ignores EOF
 * and its own children included. On macOS and Windows a server that ignores stdin EOF may outlive a
 * SIGKILLed gateway (there is no /proc to find it by, and Deno offers no parent-death signal).
 * @module
 */
import { log as defaultLog } from "../../lib/log.ts";
import { ToolError } from "../../lib/mcp/errors.ts";
import type { ProgressUpdate } from "../../lib/mcp/tool.ts";
import {
  type CallToolResult,
  type ClientCapabilities,
  type RequestId,
  type Tool,
  ToolListChangedNotificationSchema,
} from "../../lib/mcp/sdk.ts";
import type { Client } from "../../lib/mcp/sdk_client.ts";
import { callDownstream } from "./call.ts";
import { downstreamCapabilities } from "./capabilities.ts";
import { ClientSide } from "./client_side.ts";
import { type Connection, listAllTools, openConnection } from "./connect.ts";
import { endpointKey } from "./endpoint.ts";
import { breakerOpen, DEFAULT_RETRY, retryDelayMs, type RetryOptions } from "./retry_policy.ts";
import { buildCatalog, type Route } from "./catalog.ts";
import type { CatalogTool, ServerConfig, ServerStatus } from "./types.ts";
import { LogBudget } from "./stderr_lines.ts";
import { OnceLog } from "./log_once.ts";
import { GroupWatchdog } from "../../lib/process/watchdog.ts";
import { planReload, type ReloadReport } from "./reload.ts";
import { defaultRemoteOptions, type RemoteOptions } from "./remote.ts";
import { NeedsAuthError } from "./oauth/needs_auth.ts";
import { boundedReason, failureText, redactData, redactDiagnostic, secretsOf } from "./redact.ts";

export type { ReloadReport } from "./reload.ts";

/** The environment variable that marks a gateway's stdio children. */
const MARKER_NAME = "CONTINUE_MCP_GATEWAY";

/** No call runs longer than this, whatever the config says. */
export const CALL_CEILING_MS = 10 * 60_000;

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

/** Per-call options. */
export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides the entry's callTimeoutMs (still capped by {@link CALL_CEILING_MS}). */
  timeoutMs?: number;
  /** Requests downstream progress and receives each notification, in order, before the result. */
  onProgress?: (update: ProgressUpdate) => void;
  /** The upstream request this call serves: what the server's questions and logs meanwhile relate to. */
  origin?: RequestId;
}

/** One connection, shared by every config entry with the same endpoint. */
interface Link {
  configs: ServerConfig[];
  /** What the gateway declares to this server (fixed for the connection: a change means a new link). */
  capabilities: ClientCapabilities;
  state: "connecting" | "up" | "down";
  reason?: string;
  /** Down until the user authorises the gateway (`gateway-mcp auth <name>`). */
  needsAuth?: boolean;
  connection?: Connection;
  connecting?: Promise<void>;
  /** The last tools/list, kept while the server is down so search still finds its tools. */
  tools: Tool[];
  instructions?: string;
  failures: number;
  retryAt: number;
  closing: boolean;
  /** Calls running on this link's connection: a retired link closes once they settle. */
  inflight: Set<Promise<unknown>>;
  /** The upstream requests of those calls, oldest first. */
  origins: { id: RequestId }[];
  /** How much of its stderr the log still takes: shared by its restarts, so a crash loop cannot flood it. */
  stderrBudget: LogBudget;
}

/**
 * Every configured downstream server behind one catalog; `start()` connects them all in parallel, declaring
 * the client capabilities given to `declare()` (none before).
 */
export class Downstreams implements AsyncDisposable {
  #configs: ServerConfig[];
  /** The upstream client's capabilities: what each downstream connection may declare (capabilities.ts). */
  #upstream: ClientCapabilities = {};
  #started = false;
  readonly #sharingLogged = new Set<string>();
  /** Every rebuild finds the same collisions again: each is logged once. */
  readonly #collisionLog = new OnceLog((line) => this.#deps.log.info(line));
  readonly #links = new Map<string, Link>();
  readonly #deps: Required<DownstreamDeps>;
  readonly #listeners = new Set<() => void>();
  /** What each downstream client answers its server (roots, elicitation, sampling) and relays (logs). */
  readonly clientSide = new ClientSide();
  /** In every stdio child's environment (and so its children's): how the watchdog finds them. */
  readonly #marker = `${MARKER_NAME}=${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
  readonly #watchdog = new GroupWatchdog({
    // A BRE for grep -z: the whole entry, literally (the value holds only digits, hex and "-").
    markerPattern: `^${this.#marker}$`,
    path: Deno.env.get("PATH"),
  });
  #routes = new Map<string, Route<Link>>();
  #catalog: CatalogTool[] = [];
  /** Links no longer in the config, waiting for their calls in flight before they close. */
  readonly #retiring = new Set<Promise<void>>();
  /** Resolves when close() starts: retired links stop waiting for their calls. */
  readonly #closing = Promise.withResolvers<void>();
  #closed = false;

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
    for (const [key, group] of this.#group(configs)) this.#links.set(key, this.#newLink(group));
  }

  /**
   * Sets the upstream client's capabilities, which decide what each downstream connection declares. Call it
   * before start(); afterwards, each connection whose declaration changes is replaced (its calls in flight
   * finish on the old one).
   */
  async declare(upstream: ClientCapabilities): Promise<void> {
    this.#upstream = upstream;
    await this.#regroup(this.#configs);
  }

  /** Connects every enabled server in parallel; resolves once each is up or down. */
  async start(): Promise<void> {
    this.#started = true;
    await Promise.allSettled([...this.#links.values()].map((link) => this.#connect(link)));
  }

  /** Reconnects every server that is down and past its backoff (one never up has no tool to call). */
  async retryDown(): Promise<void> {
    const now = this.#deps.now();
    const due = [...this.#links.values()].filter((link) =>
      link.state === "down" && !link.closing && link.retryAt <= now
    );
    await Promise.allSettled(due.map((link) => this.#connect(link)));
  }

  /** Resolves once `name` is up or failed again: its connect in flight, or a new one if it is due; else at once. */
  async revive(name: string): Promise<void> {
    const config = this.#configs.find((entry) => entry.name === name && entry.enabled);
    const link = config && this.#linkOf(config);
    if (!link || link.closing || link.state === "up" || this.#closed) return;
    if (link.connecting || link.retryAt <= this.#deps.now()) await this.#connect(link);
  }

  /** The visible tools of every server that was ever up (a down server keeps its last list). */
  catalog(): CatalogTool[] {
    return this.#catalog;
  }

  /** Health of each configured server, in config order. */
  status(): ServerStatus[] {
    return this.#configs.map((config) => {
      if (!config.enabled) return { name: config.name, state: "disabled", tools: 0 };
      const link = this.#linkOf(config);
      const others = link.configs.filter((other) => other !== config).map((other) => other.name);
      return {
        name: config.name,
        state: link.state,
        ...(link.reason === undefined ? {} : { reason: link.reason }),
        // Kept while a retry is connecting: what the user must do has not changed until one succeeds.
        ...(link.needsAuth && link.state !== "up" ? { needsAuth: true } : {}),
        tools: this.#catalog.filter((tool) => tool.server === config.name).length,
        ...(link.instructions === undefined ? {} : { instructions: link.instructions }),
        ...(others.length ? { sharedWith: others } : {}),
      };
    });
  }

  /** The pid of the child serving `name`, while it runs (shared entries report the same pid). */
  pidOf(name: string): number | undefined {
    const config = this.#configs.find((entry) => entry.name === name);
    return config?.enabled ? this.#linkOf(config).connection?.pid : undefined;
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
   * calls in flight finish on it (each bounded by its own timeout), then it closes. Resolves once every new
   * connection is up or down; the catalog is rebuilt and onCatalogChanged fires.
   */
  async reconfigure(configs: ServerConfig[]): Promise<ReloadReport> {
    const report = planReload(this.#configs, configs);
    await this.#regroup(configs);
    return report;
  }

  /** Links for `configs`: unchanged ones kept, gone ones retired, new ones connected (once started). */
  async #regroup(configs: ServerConfig[]): Promise<void> {
    if (this.#closed) return;
    const groups = this.#group(configs);
    const fresh: Link[] = [];
    for (const [key, link] of this.#links) {
      if (groups.has(key)) continue;
      this.#links.delete(key);
      this.#retire(link);
    }
    for (const [key, group] of groups) {
      const link = this.#links.get(key);
      if (link) {
        link.configs = group;
      } else {
        const created = this.#newLink(group);
        this.#links.set(key, created);
        fresh.push(created);
      }
    }
    this.#configs = configs;
    this.#rebuild();
    if (this.#started) await Promise.allSettled(fresh.map((link) => this.#connect(link)));
  }

  /** Tells every connected downstream server that the roots changed (notifications/roots/list_changed). */
  async rootsChanged(): Promise<void> {
    await Promise.allSettled(
      [...this.#links.values()]
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
    const { config, link, tool } = route;
    const connection = await this.#ensureUp(link, qualifiedName);
    const secrets = this.#secrets(link, connection);
    const own = config.toolTimeoutsMs && Object.hasOwn(config.toolTimeoutsMs, tool.name)
      ? config.toolTimeoutsMs[tool.name]
      : undefined;
    const result = await this.#track(
      link,
      options.origin,
      callDownstream(connection.client, args, {
        server: config.name,
        tool: tool.name,
        limitMs: options.timeoutMs ?? own ?? config.callTimeoutMs,
        ceilingMs: this.#deps.callCeilingMs,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
        shape: (message) => failureText(message, secrets),
      }),
    ).catch((error) => {
      if (error instanceof NeedsAuthError) this.#lostAuth(link, connection, error);
      throw error;
    });
    link.failures = 0;
    // A server may echo what the gateway gave it (a header, an env value, a token) into its result.
    return redactData(result, this.#secrets(link, connection));
  }

  /** Closes every connection: children exit, builtins run their cleanup. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#closing.resolve();
    await Promise.allSettled([...this.#links.values()].map(async (link) => {
      link.closing = true;
      await link.connecting?.catch(() => {});
      await link.connection?.close();
      link.connection = undefined;
    }));
    await Promise.allSettled(this.#retiring);
    await this.#watchdog.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /**
   * Enabled entries by link key: entries with one endpoint share one link. The key also holds what the link
   * declares, so a change of declaration (declare(), or hooks added by a reload) means a new connection.
   */
  #group(configs: ServerConfig[]): Map<string, ServerConfig[]> {
    const groups = new Map<string, ServerConfig[]>();
    for (const config of configs) {
      if (!config.enabled) continue;
      const key = endpointKey(config);
      const group = groups.get(key);
      if (group) {
        group.push(config);
        const sharing = `MCP server "${config.name}" shares the connection of "${group[0].name}"`;
        // Grouping runs again at declare() and each reload: say it once.
        if (!this.#sharingLogged.has(sharing)) this.#deps.log.info(sharing);
        this.#sharingLogged.add(sharing);
      } else {
        groups.set(key, [config]);
      }
    }
    return new Map(
      [...groups].map(([key, group]) => [`${key}\n${JSON.stringify(this.#capabilitiesOf(group))}`, group]),
    );
  }

  /** What a link serving `group` declares; the first entry's hooks are the ones used. */
  #capabilitiesOf(group: ServerConfig[]): ClientCapabilities {
    return downstreamCapabilities(this.#upstream, Boolean(group[0].elicitation?.length));
  }

  #newLink(configs: ServerConfig[]): Link {
    return {
      configs,
      capabilities: this.#capabilitiesOf(configs),
      state: "connecting",
      tools: [],
      failures: 0,
      retryAt: 0,
      closing: false,
      inflight: new Set(),
      origins: [],
      stderrBudget: new LogBudget(this.#deps.now),
    };
  }

  async #track<T>(link: Link, origin: RequestId | undefined, call: Promise<T>): Promise<T> {
    const entry = origin === undefined ? undefined : { id: origin };
    link.inflight.add(call);
    if (entry) link.origins.push(entry);
    try {
      return await call;
    } finally {
      link.inflight.delete(call);
      if (entry) link.origins.splice(link.origins.indexOf(entry), 1);
    }
  }

  /** Closes a link no entry uses any more, once its calls in flight settle (at once when the gateway closes). */
  #retire(link: Link): void {
    link.closing = true;
    const retired = (async () => {
      await link.connecting?.catch(() => {});
      while (link.inflight.size && !this.#closed) {
        await Promise.race([Promise.allSettled(link.inflight), this.#closing.promise]);
      }
      const connection = link.connection;
      link.connection = undefined;
      if (connection?.pid) this.#watchdog.unwatch(connection.pid);
      await connection?.close();
    })().catch((error) => this.#deps.log.error(`Cannot close a retired MCP server connection`, error))
      .finally(() => this.#retiring.delete(retired));
    this.#retiring.add(retired);
  }

  #linkOf(config: ServerConfig): Link {
    return [...this.#links.values()].find((link) => link.configs.includes(config))!;
  }

  #connect(link: Link): Promise<void> {
    link.connecting ??= this.#open(link).finally(() => link.connecting = undefined);
    return link.connecting;
  }

  async #open(link: Link): Promise<void> {
    const primary = link.configs[0];
    const name = primary.name;
    link.state = "connecting";
    try {
      const connection = await openConnection(primary, {
        marker: this.#marker,
        capabilities: link.capabilities,
        stderrLine: (line) => this.#deps.log.info(`[${name}] ${line}`),
        stderrBudget: link.stderrBudget,
        prepare: (client) => this.#watch(client, link),
        remote: this.#deps.remote,
      });
      if (this.#closed || link.closing) {
        await connection.close();
        return;
      }
      link.connection = connection;
      // Killed with SIGKILL, we close no stdin: the watchdog then kills every process with our marker.
      if (connection.pid) this.#watchdog.watch(connection.pid);
      link.state = "up";
      link.reason = undefined;
      link.needsAuth = false;
      const secrets = this.#secrets(link, connection);
      link.tools = redactData(connection.tools, secrets);
      link.instructions = redactData(connection.instructions, secrets);
      this.#rebuild();
    } catch (error) {
      link.state = "down";
      // Shown to the agent (search, calls) and logged: connect.ts cut the server's part, this bounds the whole.
      link.reason = boundedReason(
        error instanceof Error ? error.message : String(error),
        this.#secrets(link),
      );
      link.needsAuth = error instanceof NeedsAuthError;
      // No backoff while it waits for the user: the first call after `gateway-mcp auth` connects.
      if (link.needsAuth) link.retryAt = 0;
      else this.#failed(link);
      this.#deps.log.error(link.reason);
    }
  }

  #watch(client: Client, link: Link): void {
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      try {
        link.tools = redactData(await listAllTools(client), this.#secrets(link, link.connection));
        this.#rebuild();
      } catch (error) {
        const why = failureText(error instanceof Error ? error.message : String(error), this.#secrets(link));
        this.#deps.log.error(`Cannot re-list the tools of MCP server "${link.configs[0].name}": ${why}`);
      }
    });
    this.clientSide.wire(
      client,
      () => ({
        ...link.configs[0],
        ...(link.origins.length ? { origin: link.origins[0].id } : {}),
        redact: (value, kind) => {
          const secrets = this.#secrets(link, link.connection);
          return kind === "log" ? redactDiagnostic(value, secrets) : redactData(value, secrets);
        },
      }),
      link.capabilities,
    );
    client.onclose = () => {
      if (link.closing || link.connection?.client !== client) return;
      const connection = link.connection;
      link.connection = undefined;
      if (connection?.pid) this.#watchdog.unwatch(connection.pid);
      link.state = "down";
      link.reason = `MCP server "${link.configs[0].name}" exited; the next call restarts it`;
      this.#failed(link);
      this.#deps.log.error(link.reason);
      connection.close().catch(() => {});
    };
  }

  /** What the link's server must never echo back: its entries' secrets, and the connection's OAuth tokens. */
  #secrets(link: Link, connection?: Connection): string[] {
    return [...link.configs.flatMap(secretsOf), ...connection?.secrets() ?? []];
  }

  /** A token revoked mid-session: the server is down until authorised again; the next call reconnects. */
  #lostAuth(link: Link, connection: Connection, error: NeedsAuthError): void {
    if (link.connection !== connection) return;
    link.connection = undefined;
    link.state = "down";
    link.reason = boundedReason(error.message, this.#secrets(link, connection));
    link.needsAuth = true;
    link.retryAt = 0;
    connection.close().catch(() => {});
  }

  #failed(link: Link): void {
    link.failures++;
    link.retryAt = this.#deps.now() + retryDelayMs(link.failures, this.#deps.retry);
    if (breakerOpen(link.failures, this.#deps.retry)) {
      link.reason = `${link.reason} (${link.failures} failures in a row; retried after a cool-down)`;
    }
  }

  async #ensureUp(link: Link, qualifiedName: string): Promise<Connection> {
    if (link.connection) return link.connection;
    const name = link.configs[0].name;
    if (this.#closed) {
      throw new ToolError("unavailable", `Cannot call "${qualifiedName}": the gateway is closing`);
    }
    const waitMs = link.retryAt - this.#deps.now();
    if (!link.connecting && waitMs > 0) {
      throw new ToolError(
        "unavailable",
        `Cannot call "${qualifiedName}": MCP server "${name}" is down (${link.reason}); retry in ${
          Math.ceil(waitMs / 1000)
        }s`,
      );
    }
    await this.#connect(link);
    if (!link.connection) {
      throw new ToolError("unavailable", `Cannot call "${qualifiedName}": ${link.reason}`);
    }
    return link.connection;
  }

  #rebuild(): void {
    const sources = this.#configs.filter((config) => config.enabled).map((config) => {
      const link = this.#linkOf(config);
      return { config, link, tools: link.tools, instructions: link.instructions };
    });
    const { catalog, routes, collisions } = buildCatalog(sources);
    for (const collision of collisions) this.#collisionLog.say(`gateway: name collision: ${collision}`);
    this.#catalog = catalog;
    this.#routes = routes;
    for (const listener of this.#listeners) listener();
  }
}
