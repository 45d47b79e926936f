/**
 * What a new config changes, entry by entry: the report of a hot reload. Plain data, no I/O; Downstreams
 * applies it by endpoint (see endpoint.ts), so this only names what happened to each entry.
 * @module
 */
import { isDeepStrictEqual } from "node:util";
import { endpointKey } from "./endpoint.ts";
import type { ServerConfig } from "./types.ts";

/** Config names by what a reload did to them. */
export interface ReloadReport {
  /** New (or newly enabled) entries: connected. */
  added: string[];
  /** Gone (or newly disabled) entries: their tools left the catalog. */
  removed: string[];
  /** Entries with a new endpoint (command, args, cwd or env): a new connection. */
  restarted: string[];
  /** Entries whose filters, descriptions or timeouts changed: re-indexed on the same connection. */
  updated: string[];
  unchanged: string[];
}

/** Compares two configs entry by entry (by name, then the whole entry). */
export function planReload(before: readonly ServerConfig[], after: readonly ServerConfig[]): ReloadReport {
  const report: ReloadReport = { added: [], removed: [], restarted: [], updated: [], unchanged: [] };
  const old = new Map(before.map((config) => [config.name, config]));
  const seen = new Set<string>();
  for (const config of after) {
    seen.add(config.name);
    const previous = old.get(config.name);
    const wasOn = previous?.enabled === true;
    if (previous && isDeepStrictEqual(previous, config)) report.unchanged.push(config.name);
    else if (!previous || (!wasOn && config.enabled)) report.added.push(config.name);
    else if (wasOn && !config.enabled) report.removed.push(config.name);
    else if (!config.enabled) report.updated.push(config.name);
    else if (endpointKey(previous) !== endpointKey(config)) report.restarted.push(config.name);
    else report.updated.push(config.name);
  }
  for (const config of before) {
    if (!seen.has(config.name)) report.removed.push(config.name);
  }
  return report;
}
