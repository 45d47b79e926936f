/**
 * Opens, watches, retires and closes links (link.ts): one connect at a time per link, a connection that
 * closes marks its link down, a retired link closes once its calls in flight settle.
 *
 * Children: close() ends each child's stdin, gives it a second, then kills its process tree (its own
 * group: lib/mcp/child_transport.ts), then every process still carrying this gateway's marker. A SIGKILLed gateway runs nothing: its children see stdin EOF, and on
 * Linux a watchdog (lib/process/watchdog.ts) kills each watched group and every process carrying this
 * gateway's marker in its environment. On macOS and Windows a server that ignores stdin EOF may outlive a
 * SIGKILLed gateway (no /proc to find it by, and Deno offers no parent-death signal).
 * @module
 */
import { ToolListChangedNotificationSchema } from "../../lib/mcp/sdk.ts";
import type { Client } from "../../lib/mcp/sdk_client.ts";
import { GroupWatchdog } from "../../lib/process/watchdog.ts";
import { killMarkedGently } from "../../lib/process/tree_kill.ts";
import type { ClientSide } from "./client_side.ts";
import { type Connection, openConnection } from "./connect.ts";
import { ToolError } from "../../lib/mcp/errors.ts";
import { listAllTools } from "./tool_list.ts";
import { coalesced } from "./coalesce.ts";
import { callIdentity, type Link, linkSecrets } from "./link.ts";
import { backingOff, logSkipped, recordFailure } from "./link_health.ts";
import { NeedsAuthError } from "./oauth/needs_auth.ts";
import { boundedReason, failureText, redactData, redactDiagnostic } from "./redact.ts";
import type { RemoteOptions } from "./remote.ts";
import type { RetryOptions } from "./retry_policy.ts";

/** The environment variable that marks a gateway's stdio children. */
const MARKER_NAME = "CONTINUE_MCP_GATEWAY";

/** What the connector needs from Downstreams. */
export interface ConnectorDeps {
  now: () => number;
  log: { info(message: string): void; error(message: string, detail?: unknown): void };
  retry: RetryOptions;
  remote: RemoteOptions;
  clientSide: ClientSide;
  /** A link's tools changed (it came up, or re-listed them): rebuild the catalog. */
  toolsChanged(): void;
}

/** Connects links and closes them, children included. */
export class Connector {
  readonly #deps: ConnectorDeps;
  /** In every stdio child's environment (and so its children's): how the watchdog finds them. */
  readonly #marker = `${MARKER_NAME}=${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
  readonly #watchdog = new GroupWatchdog({
    // A BRE for grep -z: the whole entry, literally (the value holds only digits, hex and "-").
    markerPattern: `^${this.#marker}$`,
    path: Deno.env.get("PATH"),
  });
  /** Links no longer in the config, waiting for their calls in flight before they close. */
  readonly #retiring = new Set<Promise<void>>();
  /** Resolves when close() starts: retired links stop waiting for their calls. */
  readonly #closing = Promise.withResolvers<void>();
  #closed = false;
  /** Whether a stdio child was ever started: only then can a marked process be left behind. */
  #spawned = false;

  constructor(deps: ConnectorDeps) {
    this.#deps = deps;
  }

  /** True once close() started. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Connects `link` unless a connect is already under way; resolves once it is up or down. */
  connect(link: Link): Promise<void> {
    if (!link.connecting) {
      const stop = link.stopConnecting = new AbortController();
      link.connecting = this.#open(link, stop.signal).finally(() => {
        link.connecting = undefined;
        link.stopConnecting = undefined;
      });
    }
    return link.connecting;
  }

  /** The link's connection, connecting it first unless it backs off; throws `unavailable` when it is down. */
  async ensureUp(link: Link, qualifiedName: string): Promise<Connection> {
    if (link.connection) return link.connection;
    if (this.#closed) {
      throw new ToolError("unavailable", `Cannot call "${qualifiedName}": the gateway is closing`);
    }
    const refusal = backingOff(link, qualifiedName, this.#deps.now());
    if (refusal) throw refusal;
    await this.connect(link);
    if (!link.connection) {
      throw new ToolError("unavailable", `Cannot call "${qualifiedName}": ${link.reason}`);
    }
    return link.connection;
  }

  /** Closes a link no entry uses any more, once its calls in flight settle (at once when the gateway closes). */
  retire(link: Link): void {
    link.closing = true;
    link.stopConnecting?.abort();
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

  /** Closes `links` and every retired one: children exit, builtins run their cleanup. */
  async close(links: Iterable<Link>): Promise<void> {
    this.#closed = true;
    this.#closing.resolve();
    await Promise.allSettled([...links].map(async (link) => {
      link.closing = true;
      link.stopConnecting?.abort();
      await link.connecting?.catch(() => {});
      await link.connection?.close();
      link.connection = undefined;
    }));
    await Promise.allSettled(this.#retiring);
    // What a server started in a session of its own and left behind (`setsid sleep`, a TERM-proof shell)
    // is no member of any tree killed above: found by our marker, as the watchdog would after a SIGKILL.
    if (this.#spawned) {
      await killMarkedGently(this.#marker).catch((error) =>
        this.#deps.log.error("Cannot stop the processes the MCP servers left behind", error)
      );
    }
    await this.#watchdog.close();
  }

  async #open(link: Link, signal: AbortSignal): Promise<void> {
    const primary = link.configs[0];
    const name = primary.name;
    // A server down keeps saying why while it is retried (search would otherwise flip to "connecting").
    if (link.state !== "down") link.state = "connecting";
    if (primary.transport.kind === "stdio") this.#spawned = true;
    try {
      const connection = await openConnection(primary, {
        marker: this.#marker,
        capabilities: link.capabilities,
        stderrLine: (line) => this.#deps.log.info(`[${name}] ${line}`),
        stderrBudget: link.stderrBudget,
        prepare: (client) => this.#watch(client, link),
        remote: this.#deps.remote,
        signal,
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
      const secrets = linkSecrets(link, connection);
      link.tools = redactData(connection.tools, secrets);
      link.instructions = redactData(connection.instructions, secrets);
      logSkipped(link, connection.skipped, this.#deps.log);
      this.#deps.toolsChanged();
    } catch (error) {
      link.state = "down";
      // Shown to the agent (search, calls) and logged: connect.ts cut the server's part, this bounds the whole.
      link.reason = boundedReason(error instanceof Error ? error.message : String(error), linkSecrets(link));
      link.needsAuth = error instanceof NeedsAuthError;
      // No backoff while it waits for the user: the first call after `gateway-mcp auth` connects.
      if (link.needsAuth) link.retryAt = 0;
      else recordFailure(link, this.#deps.retry, this.#deps.now());
      this.#deps.log.error(link.reason);
    }
  }

  #watch(client: Client, link: Link): void {
    // A storm of list_changed costs at most two re-lists: one in flight, one after it.
    const relist = coalesced(async () => {
      try {
        const { tools, skipped } = await listAllTools(client);
        // A list from a connection since replaced is stale.
        if (link.connection && link.connection.client !== client) return;
        link.tools = redactData(tools, linkSecrets(link, link.connection));
        logSkipped(link, skipped, this.#deps.log);
        this.#deps.toolsChanged();
      } catch (error) {
        const why = failureText(error instanceof Error ? error.message : String(error), linkSecrets(link));
        this.#deps.log.error(`Cannot re-list the tools of MCP server "${link.configs[0].name}": ${why}`);
      }
    });
    client.setNotificationHandler(ToolListChangedNotificationSchema, relist);
    this.#deps.clientSide.wire(
      client,
      () => ({
        ...link.configs[0],
        ...callIdentity(link),
        redact: (value, kind) => {
          const secrets = linkSecrets(link, link.connection);
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
      const how = connection?.ended?.() ?? "closed the connection";
      link.reason = `MCP server "${link.configs[0].name}" ${how}; the next call restarts it`;
      recordFailure(link, this.#deps.retry, this.#deps.now());
      this.#deps.log.error(link.reason);
      connection.close().catch(() => {});
    };
  }
}
