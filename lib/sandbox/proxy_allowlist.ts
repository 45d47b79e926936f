/**
 * The proxy's allowlist as the server starts: the default registries, the user's own entries
 * (`MCP_SANDBOX_DOMAINS`, the sandbox config file), the hosts of each workspace root's git remotes, and the
 * domains the user allowed "always" for these roots when asked. Read once, before any job runs.
 * @module
 */
import { DEFAULT_DOMAINS } from "./proxy_domains.ts";
import { gitRemoteHosts } from "./git_remotes.ts";
import { readGrants } from "./proxy_grants.ts";
import { log } from "../log.ts";

/** What goes into the allowlist. */
export interface AllowlistSources {
  /** The user's entries, already split (proxy_domains.ts `splitDomains`). */
  user?: readonly string[];
  /** Workspace roots (real paths): their remotes' hosts, and their stored grants. */
  workspaceRoots?: readonly string[];
  /** Where "always" answers are stored (proxy_grants.ts `grantsDir`); none read when unset. */
  grantsDir?: string;
  /** False leaves the default registries out (a user who lists every domain they want). Default true. */
  defaults?: boolean;
}

/** The allowlist entries from every source, each once; invalid ones are left for `startProxy` to report. */
export async function allowlist(sources: AllowlistSources): Promise<string[]> {
  const entries = new Set<string>(sources.defaults === false ? [] : DEFAULT_DOMAINS);
  for (const entry of sources.user ?? []) entries.add(entry);
  for (const root of sources.workspaceRoots ?? []) {
    for (const host of await gitRemoteHosts(root)) entries.add(host);
    if (!sources.grantsDir) continue;
    // A grants folder that is not private is reported and skipped: it must not stop the server.
    const granted = await readGrants(sources.grantsDir, root).catch((error) => {
      log.error(`Cannot read the domains allowed for "${root}"`, error);
      return [];
    });
    for (const host of granted) entries.add(host);
  }
  return [...entries];
}
