/**
 * The domain allowlist of the sandbox's network proxy: the default list (package registries, GitHub), how a
 * user's entry is read, and how a requested host is matched against the list. Plain data; no I/O.
 * @module
 */
import { isIP } from "node:net";

/**
 * What jobs reach with no configuration: the usual package registries and their download hosts, and GitHub
 * for git over https and tarballs. Upload endpoints of these hosts (publish, push) are reachable too: a
 * domain allowlist cannot tell a download from an upload without reading the encrypted traffic.
 */
export const DEFAULT_DOMAINS: readonly string[] = [
  // npm, yarn
  "registry.npmjs.org",
  "registry.yarnpkg.com",
  "repo.yarnpkg.com",
  // Python
  "pypi.org",
  "files.pythonhosted.org",
  // Rust
  "crates.io",
  "index.crates.io",
  "static.crates.io",
  // Go
  "proxy.golang.org",
  "sum.golang.org",
  // Deno, JSR
  "deno.land",
  "dl.deno.land",
  "jsr.io",
  "npm.jsr.io",
  // Ruby
  "rubygems.org",
  "index.rubygems.org",
  // Maven Central, Gradle
  "repo.maven.apache.org",
  "repo1.maven.org",
  "plugins.gradle.org",
  "services.gradle.org",
  "downloads.gradle.org",
  // GitHub: git over https, archives, release assets, raw files
  "github.com",
  "codeload.github.com",
  "objects.githubusercontent.com",
  "raw.githubusercontent.com",
  "release-assets.githubusercontent.com",
];

/** An allowlist ready for matching: exact hosts and `*.`-suffixes, all lower case. */
export interface DomainList {
  /** Hosts allowed exactly (names or IP literals), lower case, without a final dot. */
  readonly exact: ReadonlySet<string>;
  /** Suffixes (with their leading dot) whose subdomains are allowed: `*.example.com` → `.example.com`. */
  readonly suffixes: readonly string[];
}

/** How a host matched a list: exactly, through a `*.` entry, or not at all. */
export type DomainMatch = "exact" | "wildcard" | null;

/**
 * Reads entries (`example.com`, `*.example.com`, an IP literal) into a {@link DomainList}; entries that are
 * none of these are returned in `invalid` so the caller can say so, never silently widened or dropped.
 */
export function domainList(entries: Iterable<string>): { list: DomainList; invalid: string[] } {
  const exact = new Set<string>();
  const suffixes = new Set<string>();
  const invalid: string[] = [];
  for (const raw of entries) {
    const entry = raw.trim();
    if (!entry) continue;
    if (entry.startsWith("*.")) {
      const name = normalizeHost(entry.slice(2));
      // A bare `*.com` would open a whole top-level domain: at least two labels under the star.
      if (name && isHostName(name) && name.includes(".")) suffixes.add(`.${name}`);
      else invalid.push(entry);
      continue;
    }
    const host = normalizeHost(entry);
    if (host && (isIP(host) !== 0 || isHostName(host))) exact.add(host);
    else invalid.push(entry);
  }
  return { list: { exact, suffixes: [...suffixes] }, invalid };
}

/** Splits a user's list (`MCP_SANDBOX_DOMAINS`): commas, semicolons or white space between entries. */
export function splitDomains(text: string): string[] {
  return text.split(/[\s,;]+/).filter((entry) => entry !== "");
}

/** Matches `host` (already normalized) against `list`; `*.example.com` does not match `example.com`. */
export function matchDomain(host: string, list: DomainList): DomainMatch {
  if (list.exact.has(host)) return "exact";
  // An IP literal never matches a `*.` entry: `1.2.3.4` is not a subdomain of `3.4`.
  if (isIP(host) !== 0) return null;
  return list.suffixes.some((suffix) => host.endsWith(suffix)) ? "wildcard" : null;
}

/**
 * The host as the list knows it: lower case, without IPv6 brackets or a final dot; null when it cannot be a
 * host at all. IPv4 literals in other spellings (`0x7f.1`, `2130706433`) are refused: the resolver would
 * take them for 127.0.0.1.
 */
export function normalizeHost(raw: string): string | null {
  let host = raw.trim().toLowerCase();
  if (host.startsWith("[") && host.endsWith("]")) {
    host = host.slice(1, -1);
    return isIP(host) === 6 ? host : null;
  }
  if (host.endsWith(".")) host = host.slice(0, -1);
  if (host === "" || host.length > 253) return null;
  if (isIP(host) !== 0) return host;
  return isHostName(host) && !looksNumeric(host) ? host : null;
}

/** True when `host` is a literal address rather than a name. */
export function isIpLiteral(host: string): boolean {
  return isIP(host) !== 0;
}

const LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;

function isHostName(host: string): boolean {
  return host.split(".").every((label) => LABEL.test(label));
}

/** A last label of digits or hex (`127.1`, `0x7f.0.0.1`): an address in a spelling getaddrinfo accepts. */
function looksNumeric(host: string): boolean {
  const last = host.slice(host.lastIndexOf(".") + 1);
  return /^(0x[0-9a-f]*|[0-9]+)$/.test(last);
}
