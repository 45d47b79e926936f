/**
 * How the gateway's tools find the downstream tool a name points at: in the catalog, else, when the name's
 * server is not up, after waiting for it to (re)connect (a server authorised a moment ago, or still starting,
 * has no tools in the catalog yet), else with the reason or the closest names.
 * @module
 */
import { ToolError } from "../../lib/mcp/errors.ts";
import { capQuote } from "../../lib/text/cap.ts";
import { formatCount } from "../../lib/text/format.ts";
import { prefixOf, SEPARATOR } from "./names.ts";
import type { Backend, Finder } from "./tools.ts";
import type { CatalogTool, ServerStatus } from "./types.ts";

/**
 * The names of a comma list (or an array), trimmed, empty ones dropped; more than `max` is refused before
 * any is looked up (a string is not held to the array form's schema limit).
 */
export function nameList(
  names: string | readonly string[],
  max: number,
  action: string,
  per: string,
): string[] {
  const list = (typeof names === "string" ? names.split(",") : names).map((name) => name.trim()).filter(
    Boolean,
  );
  if (list.length > max) {
    throw new ToolError(
      "invalid_argument",
      `Cannot ${action} ${formatCount(list.length)} tools at once: at most ${max} names per ${per}`,
    );
  }
  return list;
}

/**
 * Waits for the servers that wait on the user's `gateway-mcp auth` to try again: right after the command,
 * the next search must see their tools, not the old "needs auth" (their retry has no backoff, and a retry
 * without new tokens costs one refused request).
 */
export async function reviveAwaitingAuth(backend: Backend): Promise<void> {
  const waiting = backend.status().filter((status) => status.needsAuth);
  await Promise.all(waiting.map((status) => backend.revive?.(status.name)));
}

/** `find(name)`: the catalog tool `name` (a `server__tool`) names, or a ToolError saying why there is none. */
export function createLookup(backend: Backend, finder: Finder): (name: string) => Promise<CatalogTool> {
  const inCatalog = (name: string) => backend.catalog().find((entry) => entry.qualifiedName === name);
  return async (name) => {
    const tool = inCatalog(name);
    if (tool) return tool;
    let server = serverNotUp(backend.status(), name);
    if (server && backend.revive) {
      // Its tools are unknown until it is up: wait for the connect in flight (or due) rather than fail now.
      await backend.revive(server.name);
      const revived = inCatalog(name);
      if (revived) return revived;
      server = serverNotUp(backend.status(), name);
    }
    if (server) {
      throw new ToolError(
        "unavailable",
        `Cannot find tool "${capQuote(name)}": MCP server "${server.name}" is ${server.state}${
          server.reason ? ` (${server.reason})` : ""
        }`,
      );
    }
    const near = finder.suggest(backend.catalog(), name);
    throw new ToolError(
      "not_found",
      `Cannot find tool "${capQuote(name)}"${
        near.length ? `; did you mean ${near.map((n) => `"${n}"`).join(", ")}?` : ""
      }; gateway_search lists tools`,
    );
  };
}

/** The configured server a `server__tool` name points at, when that server is not up. */
function serverNotUp(statuses: readonly ServerStatus[], name: string): ServerStatus | undefined {
  const at = name.indexOf(SEPARATOR);
  if (at <= 0) return undefined;
  const prefix = name.slice(0, at);
  return statuses.find((status) =>
    prefixOf(status.name) === prefix && (status.state === "down" || status.state === "connecting")
  );
}
