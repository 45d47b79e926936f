/**
 * Connects a client to a remote MCP server: Streamable HTTP, or SSE for servers older than it. With
 * `protocol: "auto"` the gateway tries Streamable HTTP and falls back to SSE when the server answers the
 * initialize POST with a 4xx other than 401/403 (the SDK's documented fallback). Every connection carries an
 * OAuth provider: a server that never answers 401 never sees it; one that does gets OAuth 2.1 + PKCE.
 * @module
 */
import type { Transport } from "../../lib/mcp/sdk.ts";
import {
  type Client,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  StreamableHTTPError,
  UnauthorizedError,
} from "../../lib/mcp/sdk_client.ts";
import { DroppedStreams } from "./dropped_streams.ts";
import { GatewayOAuthProvider, type InteractiveStep } from "./oauth/provider.ts";
import { NeedsAuthError } from "./oauth/needs_auth.ts";
import { defaultTokenDir, TokenStore } from "./oauth/token_store.ts";
import type { RemoteTransport } from "./types.ts";

/** What a remote connection needs besides its config entry. */
export interface RemoteOptions {
  /** Where OAuth tokens are stored; unset when the user has no config folder (then OAuth cannot work). */
  tokenDir?: string;
  /** Only for `gateway-mcp auth`: the browser step. */
  interactive?: InteractiveStep;
  now?: () => number;
}

/** The OAuth provider of one remote entry. */
export function remoteProvider(
  name: string,
  spec: RemoteTransport,
  options: RemoteOptions,
): GatewayOAuthProvider | undefined {
  if (options.tokenDir === undefined) return undefined;
  return new GatewayOAuthProvider({
    server: name,
    serverUrl: spec.url,
    ...(spec.configFile === undefined ? {} : { configFile: spec.configFile }),
    store: new TokenStore(options.tokenDir),
    oauth: spec.oauth,
    fetch: fetchWithHeaders(spec),
    ...(options.interactive ? { interactive: options.interactive } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
}

/** Connects `client` (not yet connected) to the remote server; returns the transport that worked. */
export async function connectRemote(
  client: Client,
  name: string,
  spec: RemoteTransport,
  provider: GatewayOAuthProvider | undefined,
): Promise<Transport> {
  const options = {
    fetch: fetchWithHeaders(spec),
    ...(provider ? { authProvider: provider } : {}),
  };
  const url = new URL(spec.url);
  try {
    if (spec.protocol !== "sse") {
      try {
        const drops = new DroppedStreams();
        const transport = new StreamableHTTPClientTransport(url, {
          ...options,
          fetch: drops.fetch(options.fetch),
        });
        await client.connect(transport);
        drops.attach(transport);
        return transport;
      } catch (error) {
        if (spec.protocol === "http" || !isOldServer(error)) throw error;
        // The failed initialize closes the client without waiting; it must be closed to connect again.
        await client.close();
      }
    }
    const transport = new SSEClientTransport(url, options);
    await client.connect(transport);
    return transport;
  } catch (error) {
    throw authProblem(error, name, provider !== undefined) ?? error;
  }
}

/** A Streamable HTTP failure that means "this server speaks the older SSE transport". */
function isOldServer(error: unknown): boolean {
  return error instanceof StreamableHTTPError && error.code !== undefined && error.code >= 400 &&
    error.code < 500 && error.code !== 401 && error.code !== 403;
}

/** The NeedsAuthError an authorisation failure stands for, if it is one. */
function authProblem(error: unknown, name: string, canStore: boolean): Error | undefined {
  if (error instanceof NeedsAuthError) return error;
  const refused = error instanceof UnauthorizedError ||
    (error instanceof StreamableHTTPError && error.code === 401);
  if (!refused) return undefined;
  if (!canStore) {
    return new NeedsAuthError(name, "it asks for OAuth and there is no config folder for tokens (set HOME)", {
      cause: error,
    });
  }
  return new NeedsAuthError(name, "it refused the stored authorisation", { cause: error });
}

/**
 * fetch with the entry's headers on every request to the server's own origin, and never on a request to
 * another origin (an authorization server must not receive the server's API key).
 */
function fetchWithHeaders(spec: RemoteTransport): typeof fetch {
  const origin = new URL(spec.url).origin;
  const entries = Object.entries(spec.headers);
  return (input, init) => {
    const target = new URL(input instanceof Request ? input.url : String(input));
    if (!entries.length || target.origin !== origin) return fetch(input, init);
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    // An Authorization from OAuth wins over a configured one; every other configured header is sent.
    for (const [key, value] of entries) if (!headers.has(key)) headers.set(key, value);
    return fetch(input, { ...init, headers });
  };
}

/** Tokens in the user's config folder (`$XDG_CONFIG_HOME/continue-mcp/oauth`, ...). */
export function defaultRemoteOptions(): RemoteOptions {
  const tokenDir = defaultTokenDir(Deno.env.toObject());
  return tokenDir === undefined ? {} : { tokenDir };
}
