/**
 * The sandbox's mode in force and why, in the words the log, the first tool result and `deno task doctor`
 * use. Never silently off: an unsandboxed server says so, and why, every place it reports.
 * @module
 */
import type { SandboxConfig } from "./config.ts";
import type { NetworkSetup } from "./network.ts";
import type { SandboxPlan } from "./plan.ts";

/** The mode in force. */
export interface SandboxStatus {
  /** Jobs run sandboxed. */
  active: boolean;
  /** Jobs are refused (require mode where the OS cannot sandbox). */
  refusing: boolean;
  /** One line for the log and doctor. */
  summary: string;
  /** Shorter, for the first tool result after start (the agent reads it: few tokens). */
  brief: string;
  /** Settings that could not be applied. */
  problems: string[];
}

/** What the status is built from. */
export interface StatusInput {
  config: SandboxConfig;
  problems: string[];
  /** Why the OS cannot sandbox, when it cannot. */
  unavailable?: string;
  /** The engine in force (`bubblewrap 0.8.0`), when sandboxed. */
  engine?: string;
  plan?: SandboxPlan;
  network?: NetworkSetup;
  /** Whether host unix sockets are refused by the seccomp filter (else only hidden). */
  filter?: boolean;
}

/** The status line(s) for `input`. */
export function describeStatus(input: StatusInput): SandboxStatus {
  const { config, problems } = input;
  const why = config.modeSource === "default" ? "the default" : config.modeSource;
  if (config.mode === "off") {
    return {
      active: false,
      refusing: false,
      summary: `sandbox OFF (${why}): jobs run with all of the user's rights`,
      brief: `[sandbox OFF (${why}): commands run unsandboxed]`,
      problems,
    };
  }
  if (!input.engine || !input.plan || !input.network) {
    const reason = input.unavailable ?? "no sandbox engine";
    if (config.mode === "require") {
      return {
        active: false,
        refusing: true,
        summary: `sandbox REQUIRED (${why}) but unavailable: ${reason}; every command is refused`,
        brief: `[sandbox required but unavailable: ${reason}; commands are refused]`,
        problems,
      };
    }
    return {
      active: false,
      refusing: false,
      summary: `sandbox OFF (mode auto, ${why}): ${reason}; jobs run with all of the user's rights`,
      brief: `[sandbox OFF: ${reason}; commands run unsandboxed]`,
      problems,
    };
  }
  const { plan, network } = input;
  // Never silently without the allow-list: why the network is off instead is said everywhere.
  const net = `network ${network.effective}` +
    (network.note ? ` (allow-list asked, but ${network.note}: jobs get no network)` : "");
  const sockets = input.filter ? "host unix sockets refused" : "host unix sockets hidden (no seccomp filter)";
  return {
    active: true,
    refusing: false,
    summary: `sandbox on (${input.engine}, mode ${config.mode}, ${why}): writes only in ` +
      `${plan.writable.length} workspace folder(s), the job temp and cache; ${plan.denyRead.length} ` +
      `credential paths hidden; ${sockets}; ${net}`,
    brief: `[sandbox on: writes only in the workspace; network ${network.effective}` +
      `${network.note ? ` (${network.note})` : ""}]`,
    problems,
  };
}
