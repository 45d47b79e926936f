/**
 * What an engine does for a plan's network: the seam between the policy's {@link NetworkPlan} and the
 * allow-list proxy (proxy.ts, in the server, outside every sandbox). `allow` needs socat (the bridge into
 * the job's network namespace, proxy_bridge.ts) and a proxy that can listen on unix sockets (shell-mcp's
 * `--allow-net`); without either it runs as `off`, and the log, doctor, the first result and every refused
 * connection say why.
 * @module
 */
import { platform } from "../platform/mod.ts";
import { findSocat } from "./proxy_bridge.ts";
import { type NetworkProxy, type ProxyOptions, startProxy } from "./proxy.ts";
import type { NetworkPlan } from "./plan.ts";

/** The allow-list's pieces when they work here: socat, and the running proxy (absent when only inspected). */
export interface NetworkBridge {
  socat: string;
  proxy?: NetworkProxy;
}

/** The bridge, or why there is none. */
export type BridgeState = NetworkBridge | { problem: string };

/** How a job's network is set up. */
export interface NetworkSetup {
  /** Share the host's network namespace (`on`); otherwise the job gets its own, with loopback only. */
  share: boolean;
  /** The network actually in force, for the status line: `on`, `off`, `allow-list (N domains)`. */
  effective: string;
  /** Why it differs from what was asked, when it does (short: it goes into refusal lines). */
  note?: string;
  /** The allow-list's bridge, when the network goes through the proxy. */
  bridge?: NetworkBridge;
}

/** The setup of `plan`, given the bridge's state (only read for `allow`). */
export function networkSetup(plan: NetworkPlan, bridge?: BridgeState): NetworkSetup {
  switch (plan.kind) {
    case "on":
      return { share: true, effective: "on" };
    case "off":
      return { share: false, effective: "off" };
    case "allow":
      if (bridge && "socat" in bridge) {
        return { share: false, effective: `allow-list (${plan.domains.length} domains)`, bridge };
      }
      return {
        share: false,
        effective: "off",
        note: bridge?.problem ?? "the allow-list proxy is not running",
      };
  }
}

/** Where distributions install socat; searched before PATH. */
const SYSTEM_SOCAT = ["/usr/bin/socat", "/bin/socat", "/usr/local/bin/socat"];

/** What {@link startBridge} needs. */
export interface BridgeOptions {
  env: { PATH?: string };
  /** Folders jobs may write: a socat found there is refused (it runs outside the job's seccomp filter). */
  writable: readonly string[];
  /** A private folder for the proxy's sockets (default: a fresh one in the OS temp folder). */
  socketDir?: string;
  /** Only tell whether it would work (doctor): no proxy is started. */
  inspect?: boolean;
  /** Hosts of the list reached on public addresses only (the workspace's git remotes). */
  publicOnly?: readonly string[];
  /** Asks the user about a host no list allows (proxy_ask.ts). */
  ask?: ProxyOptions["ask"];
}

/** Finds socat and starts the proxy for `domains`; on failure says why (network off). */
export async function startBridge(domains: readonly string[], options: BridgeOptions): Promise<BridgeState> {
  let socat: string | null = null;
  for (const candidate of SYSTEM_SOCAT) {
    if (await Deno.stat(candidate).then((info) => info.isFile, () => false)) {
      socat = candidate;
      break;
    }
  }
  socat ??= await findSocat(options.env);
  if (!socat) return { problem: "socat is not installed" };
  socat = await Deno.realPath(socat);
  // socat runs in the bridge's sandbox, outside the job's seccomp filter: never a program a job could swap.
  if (options.writable.some((dir) => platform.isInside(socat!, dir))) {
    return { problem: `socat at "${socat}" lies in a folder jobs may write` };
  }
  if (options.inspect) return { socat };
  let proxy: NetworkProxy | undefined;
  try {
    const { socketDir, publicOnly, ask } = options;
    proxy = await startProxy({ domains, socketDir, publicOnly, ask });
    // Listening on a unix socket needs Deno's net permission: find out now, not at the first job.
    await proxy.openJob("probe").close();
    return { socat, proxy };
  } catch (error) {
    await proxy?.close();
    const reason = error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied
      ? "the proxy needs --allow-net"
      : `the proxy cannot start: ${error instanceof Error ? error.message : String(error)}`;
    return { problem: reason };
  }
}
