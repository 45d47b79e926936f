/**
 * A remote `mcpServers` entry: `{ "url": "https://…/mcp", "headers": {…}, "type": "http" | "sse",
 * "oauth": { "client_id", "client_secret", "scope" } }`. Without `type` the gateway tries Streamable HTTP
 * and falls back to SSE.
 * @module
 */
import {
  at,
  configError,
  describeValue,
  expectNonEmptyString,
  expectObject,
  expectString,
  type Place,
  refuseUnknownKeys,
} from "./config_fields.ts";
import type { RemoteTransport } from "./types.ts";

/** The keys only a remote entry has. */
export const REMOTE_KEYS = ["url", "headers", "oauth"];
/** The keys only a stdio entry has. */
export const STDIO_ONLY_KEYS = ["command", "args", "env", "cwd"];

/** `${env:VAR}` expansion at a place, as the entry parser does it. */
export type Expand = (place: Place, text: string) => string;

const PROTOCOLS: Record<string, RemoteTransport["protocol"]> = {
  "http": "http",
  "streamable-http": "http",
  "streamableHttp": "http",
  "sse": "sse",
};

/**
 * The entry's remote transport; `configFile` is the config file's absolute path (the entry's token
 * identity). Throws `ConfigError` naming the key.
 */
export function parseRemote(
  place: Place,
  entry: Record<string, unknown>,
  { expand, configFile }: { expand: Expand; configFile: string },
): RemoteTransport {
  const clash = STDIO_ONLY_KEYS.find((key) => Object.hasOwn(entry, key));
  if (clash) {
    throw configError(
      at(place, clash),
      `not allowed with "url": an entry either runs a "command" over stdio or reaches a "url", not both`,
    );
  }
  const urlPlace = at(place, "url");
  const text = expand(urlPlace, expectNonEmptyString(urlPlace, entry.url));
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw configError(urlPlace, `expected an http(s) URL, got ${describeValue(text)}`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw configError(urlPlace, `expected an http(s) URL, got ${describeValue(text)}`);
  }
  return {
    kind: "remote",
    url: url.href,
    headers: parseHeaders(at(place, "headers"), entry.headers, expand),
    protocol: parseProtocol(at(place, "type"), entry.type),
    oauth: parseOAuth(at(place, "oauth"), entry.oauth, expand),
    configFile,
  };
}

function parseProtocol(place: Place, raw: unknown): RemoteTransport["protocol"] {
  if (raw === undefined) return "auto";
  const protocol = typeof raw === "string" && Object.hasOwn(PROTOCOLS, raw) ? PROTOCOLS[raw] : undefined;
  if (!protocol) {
    throw configError(place, `expected "http" or "sse" with "url", got ${describeValue(raw)}`);
  }
  return protocol;
}

function parseHeaders(place: Place, raw: unknown, expand: Expand): Record<string, string> {
  if (raw === undefined) return {};
  return Object.fromEntries(
    Object.entries(expectObject(place, raw)).map(([name, value]) => {
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
        throw configError(place, `${describeValue(name)} is not an HTTP header name`);
      }
      return [name, expand(at(place, name), expectString(at(place, name), value))];
    }),
  );
}

function parseOAuth(place: Place, raw: unknown, expand: Expand): RemoteTransport["oauth"] {
  if (raw === undefined) return {};
  const oauth = expectObject(place, raw);
  refuseUnknownKeys(place, oauth, ["client_id", "client_secret", "scope"]);
  const read = (key: string) =>
    oauth[key] === undefined
      ? undefined
      : expand(at(place, key), expectNonEmptyString(at(place, key), oauth[key]));
  const clientId = read("client_id");
  const clientSecret = read("client_secret");
  const scope = read("scope");
  if (clientSecret !== undefined && clientId === undefined) {
    throw configError(at(place, "client_secret"), `needs "client_id" beside it`);
  }
  return {
    ...(clientId === undefined ? {} : { clientId }),
    ...(clientSecret === undefined ? {} : { clientSecret }),
    ...(scope === undefined ? {} : { scope }),
  };
}
