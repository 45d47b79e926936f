/**
 * The macOS engine: a {@link SandboxPlan} as a Seatbelt profile (SBPL text) for `sandbox-exec -p`. Pure and
 * deterministic; the shell server runs `seatbeltCommand(seatbeltProfile(plan, { proxyPort }), argv)`.
 *
 * Closed by default (`(deny default)`), then, in order (a later rule wins over an earlier one):
 * - read: everything but `denyRead` (any letter case and Unicode spelling, existing or not);
 * - write: the writable folders, the private temp and cache folders, the null device; then not the protected
 *   names, in every writable folder and at any depth where the list says so, existing or not (a rule on a
 *   regex covers a path that does not exist yet, which a bind mount cannot), nor a `.git` entry itself (not
 *   created, moved away or, when it is a worktree's pointer file, rewritten); then nothing that holds them
 *   is moved away (the writable folders, every folder above a protected or unreadable path), which would
 *   take the path out from under its rule; no hard links at all (a second name for a file outside the
 *   writable folders, or an unreadable one, would be written or read under a name no rule denies);
 * - network: `off` none, `allow` only the local proxy's port, `on` the host's IP network and DNS; unix
 *   sockets only in the private temp folder (not docker.sock, not the ssh agent).
 * @module
 */
import type { NetworkPlan, SandboxPlan } from "./plan.ts";
import { PROTECTED_NAMES } from "./protected.ts";
import { ancestors, anySpelling, regexFilter, sbplString, subpathFilter, trimSlash } from "./sbpl.ts";
import { BASE_RULES, DEVICE_RULES, machLookup, NETWORK_SERVICES } from "./seatbelt_base.ts";

/** The program that applies a profile; absolute, so a PATH entry in the workspace cannot stand in for it. */
export const SANDBOX_EXEC = "/usr/bin/sandbox-exec";

/** What a profile needs beyond the plan. */
export interface SeatbeltOptions {
  /** The TCP port the network proxy listens on at 127.0.0.1: required when the plan's network is `allow`. */
  proxyPort?: number;
}

/** The SBPL profile that confines one job to `plan`. Throws on a relative path or a missing proxy port. */
export function seatbeltProfile(plan: SandboxPlan, options: SeatbeltOptions = {}): string {
  return [
    "(version 1)",
    "; continue-mcp: one shell job's sandbox, generated from its SandboxPlan by lib/sandbox/seatbelt.ts",
    "(deny default)",
    ...BASE_RULES,
    "; read: everything but the plan's unreadable paths",
    "(allow file-read*)",
    ...rule("deny file-read*", plan.denyRead.map((path) => regexFilter(path, { subtree: true }))),
    ...DEVICE_RULES,
    ...writeRules(plan),
    ...networkRules(plan.network, plan.temp, options),
  ].join("\n") + "\n";
}

/** The argv that runs `command` (an argv, the program first) under `profile`. */
export function seatbeltCommand(profile: string, command: readonly string[]): string[] {
  return [SANDBOX_EXEC, "-p", profile, ...command];
}

function writeRules(plan: SandboxPlan): string[] {
  const writable = unique(plan.writable.map(trimSlash));
  // Moving a folder away takes everything in it out from under the rules written for its path.
  const pinned = unique([
    ...writable.flatMap((path) => [path, ...ancestors(path)]),
    ...plan.protectedPaths.flatMap(ancestors),
    ...plan.denyRead.flatMap(ancestors),
  ]);
  return [
    "; write: the writable folders and the private temp and cache folders",
    ...rule(
      "allow file-write*",
      unique([...writable, plan.temp, plan.cache].map(trimSlash)).map(subpathFilter),
    ),
    "; never written, existing or not: the protected names (lib/sandbox/protected.ts) and each .git entry",
    ...rule("deny file-write*", [
      ...writable.flatMap(protectedRegexes),
      ...plan.protectedPaths.map((path) => regexFilter(path, { subtree: true })),
    ]),
    "; never moved away: what holds a rule's path; unreadable paths are not moved out either",
    ...rule("deny file-write-unlink", [
      ...pinned.map((path) => regexFilter(path, { subtree: false })),
      ...plan.denyRead.map((path) => regexFilter(path, { subtree: true })),
    ]),
    "; no hard links: a second name would escape every rule written for the first",
    "(deny file-link)",
  ];
}

/** The regexes of every protected name of one writable folder, plus its `.git` entries themselves. */
function protectedRegexes(folder: string): string[] {
  const base = folder === "/" ? "" : anySpelling(folder);
  const regexes = PROTECTED_NAMES.map((name) =>
    `^${base}/${name.depth === "any" ? "(.*/)?" : ""}${anySpelling(name.path)}(/|$)`
  );
  regexes.push(`^${base}/(.*/)?${anySpelling(".git")}$`);
  return regexes.map((regex) => `(regex ${sbplString(regex)})`);
}

function networkRules(network: NetworkPlan, temp: string, options: SeatbeltOptions): string[] {
  // A job's own unix sockets (a test server, Python's multiprocessing) live in its private temp folder.
  const own = [`; network: ${network.kind}; unix sockets only in the private temp folder`];
  own.push(`(allow network* ${subpathFilter(temp)})`);
  if (network.kind === "off") return own;
  if (network.kind === "allow") {
    const port = options.proxyPort;
    if (port === undefined || !Number.isInteger(port) || port < 1 || port > 65535) {
      throw new Error(`A Seatbelt profile with network "allow" needs the proxy's TCP port, got ${port}`);
    }
    return [...own, `(allow network-outbound (remote ip "localhost:${port}"))`];
  }
  return [
    ...own,
    '(allow network-outbound (remote ip "*:*"))',
    '(allow network-bind network-inbound (local ip "*:*"))',
    // Name resolution goes through this one system socket.
    '(allow network-outbound (literal "/private/var/run/mDNSResponder"))',
    machLookup(NETWORK_SERVICES),
  ];
}

/** `(verb filter…)` with one filter a line, or nothing when there is no filter (a bare rule means everything). */
function rule(verb: string, filters: readonly string[]): string[] {
  return filters.length ? [`(${verb}\n${filters.map((filter) => `  ${filter}`).join("\n")})`] : [];
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
