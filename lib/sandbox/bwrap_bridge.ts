/**
 * The allow-list network on bubblewrap: two sandboxes, one inside the other. The job's seccomp filter
 * refuses socket(AF_UNIX) to every process under it, yet the bridge (socat) must open a unix socket to the
 * proxy for each connection. So an outer bwrap makes only the namespaces (user, PID, network: loopback
 * only) and runs socat there, listening on 127.0.0.1:3128 and connecting to the job's proxy socket; socat
 * then hands over to the inner bwrap, the job's usual sandbox (every mount, --disable-userns, the filter),
 * sharing the outer network namespace. The job reaches the bridge over TCP on loopback and nothing else:
 * it cannot see socat (its own PID namespace and /proc), cannot open a unix socket, and the proxy's socket
 * folder lies under /tmp, which its sandbox replaces. socat ends when the job's last process does.
 * Pure: the engine (linux.ts) adds the result to its command line.
 * @module
 */
import { BRIDGE_PORT, BRIDGE_URL, proxyEnv } from "./proxy_bridge.ts";

/** socat splits its address on `,` and `:` and reads quotes and `!!`: a socket path must avoid them. */
const SOCAT_SAFE_PATH = /^\/[A-Za-z0-9._/+-]+$/;

/** The bridge of one job: socat (absolute, found outside any sandbox) and the job's proxy socket. */
export interface JobBridge {
  socat: string;
  socketPath: string;
}

/** The inner sandbox's arguments pointing the usual tools at the bridge (curl, git, npm, pip, deno…). */
export function bridgeEnvArgs(): string[] {
  return Object.entries(proxyEnv(BRIDGE_URL)).flatMap(([name, value]) => ["--setenv", name, value]);
}

/**
 * The bridge, as the outer sandbox's command. `$1` socat, `$2` the proxy socket, the rest the inner bwrap's
 * argv: nothing is spliced into the script. It starts socat and waits until it listens (its "listening on"
 * notice, and its pid; no polling), then runs the inner bwrap with the job's stdin, exiting with its status
 * as soon as it ends, so the job's end is seen as before. socat must live as long as anything of the job
 * does (a background process may still fetch) and no longer: a watcher holds the write end of a pipe whose
 * read end the inner bwrap's init keeps (`--sync-fd`) until the job's last process is gone. The watcher
 * writes more than a pipe holds, so it blocks until that read end closes, then kills socat.
 */
const BRIDGE_SCRIPT = "s=$1 k=$2; shift 2; exec 4<&0\n" +
  `{ "$s" -d -d TCP-LISTEN:${BRIDGE_PORT},bind=127.0.0.1,fork,max-children=64 "UNIX-CONNECT:$k" ` +
  "</dev/null 2>&1 >/dev/null 4<&- & echo $!; } | {\n" +
  "p= ok=; while read -r l; do case $l in *listening*) ok=1;; ''|*[!0-9]*) ;; *) p=$l;; esac\n" +
  // socat's later notices (one per connection) go to a pipe nobody reads: closed, not left to fill up
  // and block it (socat ignores SIGPIPE).
  '[ -n "$p" ] && [ -n "$ok" ] && break; done; exec </dev/null\n' +
  `{ { trap '' PIPE; printf '%65537s' ''; kill -KILL "$p"; } </dev/null 2>/dev/null 4<&- & } | ` +
  '{ exec "$@" 5<&0 <&4 4<&-; }\n}';

/** The fd the inner bwrap gets the watcher's pipe on. */
export const BRIDGE_SYNC_FD = 5;

/**
 * The outer bwrap's arguments: namespaces only, the host's mounts as they are (socat reads the proxy's
 * socket at its host path; the inner sandbox makes the job's view), then the bridge running
 * `bwrap innerArgs`. No seccomp here and no --disable-userns: the inner bwrap needs its own user namespace
 * and applies both to the job.
 */
export function bridgedArgs(bwrap: string, innerArgs: readonly string[], bridge: JobBridge): string[] {
  for (const path of [bridge.socketPath, bridge.socat]) {
    if (!SOCAT_SAFE_PATH.test(path)) throw new Error(`Cannot bridge through "${path}": socat cannot take it`);
  }
  return [
    // No PID namespace: the inner bwrap reads /proc/<pid> of its child, and a fresh /proc here would get
    // bwrap's read-only covers (as root), which then forbid the inner sandbox's own /proc.
    ...["--unshare-user", "--unshare-net", "--dev-bind", "/", "/", "--"],
    ...["/bin/sh", "-c", BRIDGE_SCRIPT, "sh", bridge.socat, bridge.socketPath, bwrap, ...innerArgs],
  ];
}

/** Whether a command line (from ps) is one of the bridge's own processes (socat, the watcher). */
export function isBridgeProcess(command: string, bridge: JobBridge): boolean {
  return command.startsWith(`${bridge.socat} `) ||
    command.startsWith(`/bin/sh -c ${BRIDGE_SCRIPT.slice(0, 20)}`);
}
