/**
 * The links of the current config: one per distinct endpoint and declaration. Entries with one endpoint
 * (endpoint.ts) share a link; the link's key also holds what it declares (capabilities.ts), so a change of
 * declaration (declare(), or hooks added by a reload) means a new connection.
 * @module
 */
import type { ClientCapabilities } from "../../lib/mcp/sdk.ts";
import { downstreamCapabilities } from "./capabilities.ts";
import { endpointKey } from "./endpoint.ts";
import { type Link, newLink } from "./link.ts";
import type { ServerConfig } from "./types.ts";

/** What a regroup did: links to connect, links to retire. */
export interface Regrouped {
  fresh: Link[];
  gone: Link[];
}

/** The links by key, kept in step with the config and the upstream client's capabilities. */
export class LinkTable {
  readonly #links = new Map<string, Link>();
  /** The upstream client's capabilities: what each downstream connection may declare. */
  #upstream: ClientCapabilities = {};
  readonly #sharingLogged = new Set<string>();
  readonly #now: () => number;
  readonly #log: (message: string) => void;

  constructor(configs: readonly ServerConfig[], now: () => number, log: (message: string) => void) {
    this.#now = now;
    this.#log = log;
    for (const [key, group] of this.#group(configs)) this.#links.set(key, this.#newLink(group));
  }

  /** Every link, in config order. */
  all(): Link[] {
    return [...this.#links.values()];
  }

  /** The link serving the enabled entry `config`. */
  linkOf(config: ServerConfig): Link {
    return this.all().find((link) => link.configs.includes(config))!;
  }

  /** Resolves once no link is connecting. */
  async settled(): Promise<void> {
    let pending: Promise<void>[];
    while ((pending = this.all().flatMap((link) => link.connecting ? [link.connecting] : [])).length) {
      await Promise.allSettled(pending);
    }
  }

  /** Links for `configs` under `upstream`: unchanged ones kept (with their new entries), the rest replaced. */
  regroup(configs: readonly ServerConfig[], upstream = this.#upstream): Regrouped {
    this.#upstream = upstream;
    const groups = this.#group(configs);
    const regrouped: Regrouped = { fresh: [], gone: [] };
    for (const [key, link] of this.#links) {
      if (groups.has(key)) continue;
      this.#links.delete(key);
      regrouped.gone.push(link);
    }
    for (const [key, group] of groups) {
      const link = this.#links.get(key);
      if (link) {
        link.configs = group;
      } else {
        const created = this.#newLink(group);
        this.#links.set(key, created);
        regrouped.fresh.push(created);
      }
    }
    return regrouped;
  }

  /** Enabled entries by link key. */
  #group(configs: readonly ServerConfig[]): Map<string, ServerConfig[]> {
    const groups = new Map<string, ServerConfig[]>();
    for (const config of configs) {
      if (!config.enabled) continue;
      const key = endpointKey(config);
      const group = groups.get(key);
      if (group) {
        group.push(config);
        const sharing = `MCP server "${config.name}" shares the connection of "${group[0].name}"`;
        // Grouping runs again at declare() and each reload: say it once.
        if (!this.#sharingLogged.has(sharing)) this.#log(sharing);
        this.#sharingLogged.add(sharing);
      } else {
        groups.set(key, [config]);
      }
    }
    return new Map(
      [...groups].map(([key, group]) => [`${key}\n${JSON.stringify(this.#capabilitiesOf(group))}`, group]),
    );
  }

  /** What a link serving `group` declares; the first entry's hooks are the ones used. */
  #capabilitiesOf(group: ServerConfig[]): ClientCapabilities {
    return downstreamCapabilities(this.#upstream, Boolean(group[0].elicitation?.length));
  }

  #newLink(configs: ServerConfig[]): Link {
    return newLink(configs, this.#capabilitiesOf(configs), this.#now);
  }
}
