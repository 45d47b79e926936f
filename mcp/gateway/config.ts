/**
 * The gateway's config file: `{ "mcpServers": { "<name>": { ... } } }`, the shape MCP clients already use,
 * as JSONC. Every key is checked (a misspelt key is an error, with the closest known key), and every error
 * names the file, the entry and the key.
 * @module
 */
import { dirname, resolve } from "node:path";
import {
  at,
  ConfigError,
  configError,
  expectObject,
  type Place,
  refuseUnknownKeys,
} from "./config_fields.ts";
import { parseEntry } from "./config_entry.ts";
import { parseJsonc } from "./jsonc.ts";
import type { GatewayConfig, ServerConfig } from "./types.ts";
import { BUILTIN_NAMES } from "./builtins.ts";

export { ConfigError } from "./config_fields.ts";
export { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_CONNECT_TIMEOUT_MS } from "./config_entry.ts";

/**
 * The servers of this project a `{ "builtin": "<name>" }` entry may name: the folders under `mcp/` but the
 * gateway. Kept here because the gateway does not read the repository at run time; a test holds it equal
 * to tools/catalog.ts `listServers()`.
 */
export const BUILTIN_SERVERS: readonly string[] = BUILTIN_NAMES;

/** The environment variable naming the config file when `--config` is not given. */
export const CONFIG_ENV = "MCP_GATEWAY_CONFIG";

/** Options of `parseConfig`. */
export interface ParseConfigOptions {
  /** The names a `builtin` entry may use (default `BUILTIN_SERVERS`). */
  builtins?: readonly string[];
}

/**
 * The config in `text`, read from `file` (named in errors as given; a relative `cwd` resolves against its
 * folder), with `${env:VAR}` expanded from `env`. Throws `ConfigError`.
 */
export function parseConfig(
  text: string,
  file: string,
  env: Record<string, string | undefined>,
  options: ParseConfigOptions = {},
): GatewayConfig {
  const place: Place = { file, path: [] };
  let raw: unknown;
  try {
    raw = parseJsonc(text);
  } catch (error) {
    throw configError(place, `invalid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw configError(place, `expected an object with "mcpServers" at the top level`);
  }
  const root = raw as Record<string, unknown>;
  refuseUnknownKeys(place, root, ["mcpServers", "$schema"]);
  if (!Object.hasOwn(root, "mcpServers")) {
    throw configError(at(place, "mcpServers"), 'missing: the config lists its servers under "mcpServers"');
  }
  const absolute = resolve(file);
  const context = {
    env,
    baseDir: dirname(absolute),
    file: absolute,
    builtins: options.builtins ?? BUILTIN_SERVERS,
  };
  const serversPlace = at(place, "mcpServers");
  const servers = Object.entries(expectObject(serversPlace, root.mcpServers))
    .map(([name, value]) => parseEntry({ name, value, place: at(serversPlace, name) }, context));
  refuseSharedPrefixes(serversPlace, servers);
  return { file: absolute, servers };
}

/**
 * Two entries whose names become one prefix (`my.srv`, `my_srv`) would share `my_srv__…`: a call would reach
 * whichever came first. Disabled entries count too, so enabling one never moves a name to another server.
 */
function refuseSharedPrefixes(place: Place, servers: readonly ServerConfig[]): void {
  const owners = new Map<string, string>();
  for (const { name, prefix } of servers) {
    const first = owners.get(prefix);
    if (first === undefined) {
      owners.set(prefix, name);
      continue;
    }
    throw configError(
      at(place, name),
      `the server names ${JSON.stringify(first)} and ${JSON.stringify(name)} both become ${
        JSON.stringify(prefix)
      } in tool names; rename one of them`,
    );
  }
}

/**
 * The config at `path` (the `--config` flag), else at `$MCP_GATEWAY_CONFIG`; neither → no servers.
 * Throws `ConfigError` when the file cannot be read or is invalid.
 */
export async function loadConfig(
  path: string | undefined,
  env: Record<string, string | undefined>,
): Promise<GatewayConfig> {
  const file = path || env[CONFIG_ENV];
  if (!file) return { servers: [] };
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (error) {
    const source = path ? "" : ` (named by ${CONFIG_ENV})`;
    const why = error instanceof Deno.errors.NotFound
      ? "no such file"
      : error instanceof Error
      ? error.message
      : String(error);
    throw new ConfigError(`${file}: cannot read the config${source}: ${why}`);
  }
  return parseConfig(text, file, env);
}
