/**
 * What one sandboxed job may touch, resolved to absolute real paths: the contract between the policy (which
 * decides it from the user's configuration and the workspace) and each OS engine (bubblewrap on Linux,
 * Seatbelt on macOS) that enforces it. Plain data; no I/O.
 * @module
 */

/** How the shell server sandboxes its jobs. */
export type SandboxMode =
  /** Sandbox when the OS can; otherwise run unsandboxed and say so loudly (the default). */
  | "auto"
  /** Refuse to run a command when the OS cannot sandbox it. */
  | "require"
  /** Never sandbox (today's behaviour), with a loud line at start. */
  | "off";

/** Where a job's network connections may go. */
export type NetworkPlan =
  /** No network at all (a private network namespace with only loopback). */
  | { kind: "off" }
  /** The host's network, unfiltered. */
  | { kind: "on" }
  /**
   * Only through our proxy, to these domains (`example.com` exactly, `*.example.com` its subdomains).
   * `publicOnly` (optional, added with the proxy's wiring): those of them the workspace named (its git
   * remotes' hosts), reached on public addresses only.
   */
  | { kind: "allow"; domains: readonly string[]; publicOnly?: readonly string[] };

/** One job's sandbox, every path absolute and real (symlinks resolved before it is built). */
export interface SandboxPlan {
  /** Folders the job may write: workspace roots, allowed folders, the user's additions. */
  writable: readonly string[];
  /**
   * Paths inside `writable` that stay read-only (lib/sandbox/protected.ts), whether or not they exist yet:
   * an engine must also keep a missing one from being created.
   */
  protectedPaths: readonly string[];
  /** Folders and files the job may not read at all (credentials): they look empty or absent. */
  denyRead: readonly string[];
  /** The server's private temp folder: the job's `/tmp` and `TMPDIR`. */
  temp: string;
  /** Private caches for package managers (npm, pip, cargo, go, deno), so a job cannot poison the user's. */
  cache: string;
  network: NetworkPlan;
  /**
   * Folders shown to the job empty (where host unix sockets live: /run, $XDG_RUNTIME_DIR, the ssh-agent's):
   * a job that can talk to docker.sock is root. Optional; absent means none.
   */
  hidden?: readonly string[];
  /** Variables set in the job's environment (caches pointed at `cache`, TMPDIR). Optional. */
  env?: Readonly<Record<string, string>>;
  /** Variables removed from the job's environment (ones naming host sockets). Optional. */
  unsetEnv?: readonly string[];
}
