/**
 * What an engine does for a plan's network: the seam between the policy's {@link NetworkPlan} and the
 * allow-list proxy (lib/sandbox/proxy.ts, an HTTP CONNECT/forward proxy on a unix socket, bridged into the
 * job's network namespace). Until the proxy is wired in here, `allow` runs as `off`, and every status line
 * says so.
 * @module
 */
import type { NetworkPlan } from "./plan.ts";

/** How a job's network is set up. */
export interface NetworkSetup {
  /** Share the host's network namespace (`on`); otherwise the job gets its own, with loopback only. */
  share: boolean;
  /** The network actually in force, for the status line: `on`, `off`, `allow-list (N domains)`. */
  effective: string;
  /** Why it differs from what was asked, when it does. */
  note?: string;
  /** More bwrap arguments for the proxy's bridge (`--bind <socket> <socket>`, `--setenv HTTPS_PROXY …`). */
  bwrapArgs?: readonly string[];
  /** A program the job's command runs under inside the sandbox (the bridge's launcher). */
  commandPrefix?: readonly string[];
}

/** The setup of `plan`. */
export function networkSetup(plan: NetworkPlan): NetworkSetup {
  switch (plan.kind) {
    case "on":
      return { share: true, effective: "on" };
    case "off":
      return { share: false, effective: "off" };
    case "allow":
      // TODO(28): start the allow-list proxy (lib/sandbox/proxy.ts) for plan.domains and return its bridge
      // as bwrapArgs/commandPrefix. Note for that bridge: the job's seccomp filter refuses socket(AF_UNIX)
      // for every process in the sandbox, so the bridge must not need to create one inside it.
      return {
        share: false,
        effective: "off",
        note: "the allow-list proxy is not built yet; MCP_SANDBOX_NETWORK=on opens the network",
      };
  }
}
