/**
 * Opens, watches, retires and closes links (link.ts): one connect at a time per link, a connection that
 * closes marks its link down, a retired link closes once its calls in flight settle.
 *
 * Children and a gateway that dies: close() ends each child's stdin, gives it a second, then kills its whole
 * process tree (lib/mcp/child_transport.ts: each stdio server leads its own process group). If the gateway
 * is SIGKILLed nothing of it runs: its children see stdin EOF (this project's servers exit on that), and on
 * Linux a small watchdog process (lib/process/watchdog.ts) kills each watched group and every process
 * carrying this gateway's marker in its environment, a foreign server that ignores EOF and its own children
 * included. On macOS and Windows a server that ignores stdin EOF may outlive a SIGKILLed gateway (there is no
 * /proc to find it by, and Deno offers no parent-death signal).
 * @module
 */
import { type RequestId, ToolListChangedNotificationSchema } from "../../lib/mcp/sdk.ts";
import type { Client } from "../../lib/mcp/sdk_client.ts";
import { GroupWatchdog } from "../../lib/process/watchdog.ts";
import type { ClientSide } from "./client_side.ts";
import { openConnection } from "./connect.ts";
import { listAllTools } from "./tool_list.ts";
import { currentCall, type Link, type LinkCall, linkSecrets } from "./link.ts";
import { recordFailure } from "./link_health.ts";
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

  /** Resolves once no link of `links` is connecting. */
  async settled(links: () => Iterable<Link>): Promise<void> {
    let pending: Promise<void>[];
    while ((pending = [...links()].flatMap((link) => link.connecting ? [link.connecting] : [])).length) {
      await Promise.allSettled(pending);
    }
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
    await this.#watchdog.close();
  }

  async #open(link: Link, signal: AbortSignal): Promise<void> {
    const primary = link.configs[0];
    const name = primary.name;
    // A server down keeps saying why while it is retried (search would otherwise flip to "connecting").
    if (link.state !== "down") link.state = "connecting";
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
      this.#logSkipped(link, connection.skipped);
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

  /** Logs each malformed tool the server listed, once per link. */
  #logSkipped(link: Link, skipped: readonly string[]): void {
    for (const reason of skipped) {
      if (link.skipsLogged.has(reason)) continue;
      link.skipsLogged.add(reason);
      const line = `MCP server "${link.configs[0].name}": ${reason}`;
      this.#deps.log.error(failureText(line, linkSecrets(link, link.connection)));
    }
  }

  #watch(client: Client, link: Link): void {
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      try {
        const { tools, skipped } = await listAllTools(client);
        link.tools = redactData(tools, linkSecrets(link, link.connection));
        this.#logSkipped(link, skipped);
        this.#deps.toolsChanged();
      } catch (error) {
        const why = failureText(error instanceof Error ? error.message : String(error), linkSecrets(link));
        this.#deps.log.error(`Cannot re-list the tools of MCP server "${link.configs[0].name}": ${why}`);
      }
    });
    this.#deps.clientSide.wire(
      client,
      () => ({
        ...link.configs[0],
        ...callIdentity(currentCall(link)),
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
      link.reason = `MCP server "${link.configs[0].name}" exited; the next call restarts it`;
      recordFailure(link, this.#deps.retry, this.#deps.now());
      this.#deps.log.error(link.reason);
      connection.close().catch(() => {});
    };
  }
}

/** What a server's request is related to: the call's upstream id, and the signal of its end. */
function callIdentity(call: LinkCall | undefined): { origin?: RequestId; callEnded?: AbortSignal } {
  if (!call) return {};
  return { ...(call.id === undefined ? {} : { origin: call.id }), callEnded: call.ended };
}
