/**
 * The in-sandbox half of the network proxy (Linux, bubblewrap): the job's private network namespace has only
 * loopback, so a `socat` started inside it listens on 127.0.0.1:3128 and carries each connection to the
 * job's proxy socket, bound in from outside. The job learns the proxy from the usual environment variables.
 * Plain data; the engine adds these pieces to its bwrap command line.
 * @module
 */
import { findOnPath } from "../platform/which.ts";

/** The port the bridge listens on inside the sandbox (the conventional proxy port). */
export const BRIDGE_PORT = 3128;

/** A place for the job's socket inside the sandbox, on the tmpfs an engine mounts at /run. */
export const BRIDGE_SOCKET_INSIDE = "/run/continue-mcp/proxy.sock";

/** The proxy URL jobs are given. */
export const BRIDGE_URL = `http://127.0.0.1:${BRIDGE_PORT}`;

/**
 * Starts socat in the background, waits until it listens (its "listening on" notice; no polling, no sleep),
 * then becomes the job. socat's notices after that go to a closed pipe, which it ignores (it ignores SIGPIPE).
 * If socat fails, the pipe closes and the job runs with no way out (its connections are refused).
 * `$1` is socat, `$2` the socket, the rest the job's argv: nothing is spliced into the script.
 */
const BRIDGE_SCRIPT = "s=$1 k=$2; shift 2; " +
  `{ "$s" -d -d TCP-LISTEN:${BRIDGE_PORT},bind=127.0.0.1,fork,max-children=64 "UNIX-CONNECT:$k" ` +
  "</dev/null 2>&1 >/dev/null & } | while read -r l; do case $l in *listening*) break;; esac; done; " +
  'exec "$@"';

/** socat splits its address on `,` and `:` and reads quotes and `!!`: a socket path must avoid them. */
const SOCAT_SAFE_PATH = /^\/[A-Za-z0-9._/+-]+$/;

/** The pieces an engine adds for one job whose network goes through the proxy. */
export interface BridgePieces {
  /** bwrap arguments binding the job's socket in (read-only: connecting needs no write access). */
  bwrapArgs: string[];
  /** The argv bwrap runs: the bridge, which then execs the job's own `argv`. */
  argv: string[];
  /** Environment for the job: the proxy for every usual tool. */
  env: Record<string, string>;
}

/**
 * The bridge for a job with proxy socket `socketPath`, running `argv`. `socat` is its absolute path (from
 * {@link findSocat}, looked up once outside the sandbox). The bwrap command line must also unshare the network
 * (`--unshare-net`) and the PID namespace (`--unshare-pid`: socat dies with the job).
 * `insidePath` is where the job sees its socket (default: the same path). Best is a path on a tmpfs the
 * engine mounts (`--tmpfs /run` hides the host's sockets anyway), e.g. {@link BRIDGE_SOCKET_INSIDE}, with
 * the proxy's socket folder itself not visible: then a job reaches its own socket only, never another job's
 * (whose "allow once" answers it would share). The bind goes after the mount that holds `insidePath`.
 */
export function bridgePieces(
  socketPath: string,
  socat: string,
  argv: readonly string[],
  insidePath: string = socketPath,
): BridgePieces {
  for (const path of [socketPath, insidePath]) {
    if (!SOCAT_SAFE_PATH.test(path)) {
      throw new Error(`Cannot bridge the proxy socket "${path}": socat cannot take that path`);
    }
  }
  return {
    bwrapArgs: ["--ro-bind", socketPath, insidePath],
    argv: ["/bin/sh", "-c", BRIDGE_SCRIPT, "sh", socat, insidePath, ...argv],
    env: proxyEnv(BRIDGE_URL),
  };
}

/** Finds socat, the bridge's one dependency (Debian/Ubuntu/Fedora/Arch package `socat`); null if absent. */
export function findSocat(env: { PATH?: string } = {}): Promise<string | null> {
  return findOnPath("socat", env);
}

/**
 * The environment that points the usual tools at the proxy at `url`: curl, wget, git, pip, uv, cargo, go,
 * deno, bun, gem and bundler read the `*_proxy` variables; npm and yarn also their own names; Node's own
 * `fetch` only with NODE_USE_ENV_PROXY (Node 22.21+/24+); Java (Maven, Gradle) only system properties.
 * Loopback stays direct: a job's own test servers listen inside its sandbox.
 */
export function proxyEnv(url: string): Record<string, string> {
  const { hostname, port } = new URL(url);
  const noProxy = "localhost,127.0.0.1,::1";
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    ALL_PROXY: url,
    all_proxy: url,
    NO_PROXY: noProxy,
    no_proxy: noProxy,
    npm_config_proxy: url,
    npm_config_https_proxy: url,
    YARN_HTTP_PROXY: url,
    YARN_HTTPS_PROXY: url,
    NODE_USE_ENV_PROXY: "1",
    JAVA_TOOL_OPTIONS: [
      `-Dhttp.proxyHost=${hostname}`,
      `-Dhttp.proxyPort=${port}`,
      `-Dhttps.proxyHost=${hostname}`,
      `-Dhttps.proxyPort=${port}`,
      "-Dhttp.nonProxyHosts=localhost|127.0.0.1",
    ].join(" "),
  };
}
