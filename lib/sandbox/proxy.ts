/**
 * The sandbox's network proxy: runs in the server, outside every sandbox, and is a sandboxed job's only way
 * out. Each job gets its own listener (a unix socket in a private folder, bound into the job's sandbox and
 * bridged to 127.0.0.1:3128 there, see proxy_bridge.ts), so every refusal is known by job. It serves HTTP
 * CONNECT (https, git over https) and plain-http requests to the allowed domains, answers the rest with 403,
 * and reports each refused host once per job.
 * @module
 */
import { join } from "node:path";
import { log } from "../log.ts";
import { ensurePrivateDir } from "../fs/private_dir.ts";
import { throttled } from "../log_throttle.ts";
import { domainList } from "./proxy_domains.ts";
import { DomainPolicy, type JobGrants, type PolicyOptions, type RefusalReason } from "./proxy_policy.ts";
import { closeQuietly } from "./proxy_pipe.ts";
import { type ConnectionLimits, serveConnection } from "./proxy_connection.ts";

/** The proxy's bounds: an abusive job costs a bounded number of sockets, bytes and seconds. */
export interface ProxyLimits extends ConnectionLimits {
  /** Connections open at once, all jobs together; beyond it a new one gets 503. */
  maxConnections: number;
  /** Connections open at once for one job. */
  maxJobConnections: number;
}

/** The limits used when the caller gives none. */
export const DEFAULT_PROXY_LIMITS: ProxyLimits = {
  maxConnections: 256,
  maxJobConnections: 64,
  headBytes: 16 * 1024,
  headTimeoutMs: 10_000,
  connectTimeoutMs: 15_000,
  idleTimeoutMs: 300_000,
};

/** A refused connection, reported once per job and host. */
export interface DenialEvent {
  jobId: string;
  host: string;
  port: number;
  reason: RefusalReason;
}

/** Settings of {@link startProxy}. */
export interface ProxyOptions extends PolicyOptions {
  /** The allowlist: `example.com` exactly, `*.example.com` its subdomains, IP literals exactly. */
  domains: Iterable<string>;
  /** Called once per job and refused host (just before the client gets its 403). */
  onDenied?: (event: DenialEvent) => void;
  /** Where the sockets go; default: a fresh private temp folder, removed by `close()`. */
  socketDir?: string;
  limits?: Partial<ProxyLimits>;
}

/** One job's way out: its listener and what it was refused. */
export interface JobProxy extends AsyncDisposable {
  readonly jobId: string;
  /** The unix socket to bind into the job's sandbox (transport "unix"), else null. */
  readonly socketPath: string | null;
  /** The loopback TCP port (transport "tcp"), else null. */
  readonly port: number | null;
  /** The hosts refused to this job so far, first refusal first. */
  deniedHosts(): string[];
  /** Stops listening and drops the job's open connections. */
  close(): Promise<void>;
}

/** A running proxy. */
export interface NetworkProxy extends AsyncDisposable {
  /** The private folder holding the jobs' sockets. */
  readonly socketDir: string;
  /** Allowlist entries that were not a domain, a `*.` pattern or an IP literal: ignored, to be reported. */
  readonly invalidDomains: readonly string[];
  /**
   * Opens a listener for job `jobId`. "unix" (the default) is what bubblewrap binds in; "tcp" listens on
   * 127.0.0.1 on a free port, reachable by every local process of the host, for engines that allow a
   * loopback port rather than a socket (Seatbelt).
   */
  openJob(jobId: string, options?: { transport?: "unix" | "tcp" }): JobProxy;
  /** Closes every job's listener and connection; removes the socket folder when the proxy made it. */
  close(): Promise<void>;
}

/** A unix socket path longer than this does not fit `sockaddr_un` on every OS (104 on macOS). */
const MAX_SOCKET_PATH = 100;

/** Starts the proxy; jobs get listeners from {@link NetworkProxy.openJob}. */
export async function startProxy(options: ProxyOptions): Promise<NetworkProxy> {
  const limits = { ...DEFAULT_PROXY_LIMITS, ...options.limits };
  const { list, invalid } = domainList(options.domains);
  const policy = new DomainPolicy(list, options);
  const ownDir = options.socketDir === undefined;
  const socketDir = options.socketDir ?? await Deno.makeTempDir({ prefix: "continue-mcp-proxy-" });
  // The folder must be ours alone: a socket someone else could replace would see every job's traffic.
  await ensurePrivateDir(socketDir, { create: true });
  const jobs = new Set<JobProxy>();
  const logDenial = throttled(log.info);
  const logError = throttled(log.error);
  let active = 0;
  let counter = 0;

  const openJob = (jobId: string, jobOptions: { transport?: "unix" | "tcp" } = {}): JobProxy => {
    const tcp = jobOptions.transport === "tcp";
    const socketPath = tcp ? null : join(socketDir, `job-${++counter}.sock`);
    if (socketPath && socketPath.length > MAX_SOCKET_PATH) {
      throw new Error(
        `Cannot open a proxy socket at "${socketPath}": the path is longer than a socket allows`,
      );
    }
    // A socket left by an earlier run in a caller's folder (private, checked at start) would block the name.
    if (socketPath) removeStale(socketPath);
    const listener: Deno.Listener = socketPath
      ? Deno.listen({ transport: "unix", path: socketPath })
      : Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = tcp ? (listener.addr as Deno.NetAddr).port : null;
    const grants: JobGrants = { jobId, allowedOnce: new Set(), asked: 0 };
    const denied = new Set<string>();
    const abort = new AbortController();
    const handlers = new Set<Promise<void>>();
    let jobActive = 0;

    const deny = (host: string, port: number, reason: RefusalReason) => {
      if (denied.has(host)) return;
      denied.add(host);
      logDenial(`[sandbox] refused job ${jobId} a connection to "${host}:${port}" (${reason})`);
      try {
        options.onDenied?.({ jobId, host, port, reason });
      } catch (error) {
        log.error("The sandbox proxy's denial handler failed", error);
      }
    };

    const accepting = (async () => {
      try {
        for await (const conn of listener) {
          const busy = active >= limits.maxConnections || jobActive >= limits.maxJobConnections;
          active++, jobActive++;
          const handler = serveConnection(conn, { policy, grants, limits, busy, deny, signal: abort.signal })
            .catch((error) => logError(`The sandbox proxy dropped a connection of job ${jobId}: ${error}`))
            .finally(() => {
              active--, jobActive--;
              closeQuietly(conn);
              handlers.delete(handler);
            });
          handlers.add(handler);
        }
      } catch (error) {
        if (!abort.signal.aborted) logError(`The sandbox proxy stopped listening for job ${jobId}: ${error}`);
      }
    })();

    let closing: Promise<void> | undefined;
    const job: JobProxy = {
      jobId,
      socketPath,
      port,
      deniedHosts: () => [...denied],
      close: () =>
        closing ??= (async () => {
          abort.abort();
          try {
            listener.close();
          } catch {
            // Already closed.
          }
          await accepting;
          await Promise.all([...handlers]);
          if (socketPath) await Deno.remove(socketPath).catch(() => {});
          jobs.delete(job);
        })(),
      [Symbol.asyncDispose]: () => job.close(),
    };
    jobs.add(job);
    return job;
  };

  let closing: Promise<void> | undefined;
  const proxy: NetworkProxy = {
    socketDir,
    invalidDomains: invalid,
    openJob,
    close: () =>
      closing ??= (async () => {
        await Promise.all([...jobs].map((job) => job.close()));
        if (ownDir) await Deno.remove(socketDir, { recursive: true }).catch(() => {});
      })(),
    [Symbol.asyncDispose]: () => proxy.close(),
  };
  return proxy;
}

function removeStale(path: string): void {
  try {
    Deno.removeSync(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}
