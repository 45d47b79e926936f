/**
 * `gateway-mcp auth <server>`: the one place a browser opens. Connects to the remote server with an
 * interactive OAuth provider; when the server asks for authorisation the SDK discovers the authorization
 * server, registers the gateway when it offers dynamic registration, and hands us the authorization URL
 * (with a PKCE challenge). We open it and print it (a headless machine's user opens it elsewhere), wait for
 * the redirect to a loopback listener, exchange the code (once), connect again to prove the tokens work,
 * and only then store them: a failed run leaves what was stored as it was.
 * @module
 */
import { Client, UnauthorizedError } from "../../../lib/mcp/sdk_client.ts";
import { isLoopback } from "../../../lib/mcp/http_guard.ts";
import { VERSION } from "../../../lib/version.ts";
import { ConfigError } from "../config_fields.ts";
import { listAllTools } from "../tool_list.ts";
import { connectRemote, remoteProvider } from "../remote.ts";
import type { GatewayConfig, RemoteTransport } from "../types.ts";
import { listenForRedirect } from "./loopback.ts";
import { NeedsAuthError } from "./needs_auth.ts";
import { failureText } from "../redact.ts";
import { TokenStore } from "./token_store.ts";

/** How long the command waits for the user to finish in the browser. */
export const AUTHORIZE_WAIT_MS = 5 * 60_000;

/** What `authorizeServer` needs. */
export interface AuthorizeOptions {
  config: GatewayConfig;
  /** The config entry to authorise. */
  name: string;
  /** Where tokens are stored (the user's config folder). */
  tokenDir: string | undefined;
  /** Opens the authorization URL: the platform's browser opener; a test passes its own. */
  open(url: URL): Promise<void>;
  /** One line for the user (stderr). */
  say(line: string): void;
  waitMs?: number;
}

/** What the run ended with. */
export interface Authorized {
  /** False when the server let us in without asking (nothing was stored). */
  authorised: boolean;
  tools: number;
}

/** Runs the browser flow for one server and stores its tokens; throws with a sentence to show. */
export async function authorizeServer(options: AuthorizeOptions): Promise<Authorized> {
  const spec = remoteEntry(options.config, options.name);
  if (options.tokenDir === undefined) {
    throw new Error("Cannot store tokens: no user config folder (set HOME, or APPDATA on Windows)");
  }
  // The browser may answer while the first connect still waits on opening it: the state is read then.
  let requested: () => string = () => "";
  await using listener = listenForRedirect(() => requested());
  const provider = remoteProvider(options.name, spec, {
    tokenDir: options.tokenDir,
    interactive: {
      redirectUrl: listener.redirectUrl,
      open: async (url) => {
        // The authorization server names this URL: it must not pick what the opener runs (a file: link to a
        // planted .desktop or .url file, a custom protocol handler), nor send the login over plain http.
        const refusal = authorizationUrlRefusal(url);
        if (refusal) {
          throw new Error(
            `Refused to open the authorization URL of "${options.name}" (${spec.url}): ${refusal}; only ` +
              "https:, or http: to this machine, is opened",
          );
        }
        options.say(`Open this URL to authorise "${options.name}" (trying your browser now):\n${url.href}`);
        await options.open(url).catch((error) =>
          options.say(
            `Could not open a browser (${
              error instanceof Error ? error.message : error
            }): open the URL yourself`,
          )
        );
      },
    },
  })!;
  requested = () => provider.expectedState;
  const first = await tryConnect(options.name, spec, provider).catch((error) => {
    throw registrationHint(error, options.name);
  });
  if (typeof first === "number") return { authorised: false, tools: first };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waitMs = options.waitMs ?? AUTHORIZE_WAIT_MS;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`Gave up waiting for the browser after ${Math.round(waitMs / 1000)}s`)),
      waitMs,
    );
  });
  try {
    // The listener refuses a redirect whose state is not this request's (and says so on the page).
    const { code } = await Promise.race([listener.redirected, timeout]);
    await provider.exchangeCode(code);
  } finally {
    clearTimeout(timer);
  }
  const tools = await tryConnect(options.name, spec, provider);
  if (typeof tools !== "number") {
    // Running this command again would end the same way: say so, rather than the gateway's "run ... auth".
    throw new Error(
      `MCP server "${options.name}" refused the tokens its authorization server just issued (${
        authReason(tools.refused, provider.secrets())
      }); nothing was stored. The server or its authorization server may be misconfigured (resource, ` +
        "scopes), or the account may not have access to it",
      { cause: tools.refused },
    );
  }
  await provider.commit();
  // What an earlier gateway kept for this URL (for whichever entry was authorised last) is replaced now.
  await new TokenStore(options.tokenDir).removeLegacy(spec.url);
  return { authorised: true, tools };
}

/** Why `url` may not be opened in a browser, or undefined when it may: https, or http to a loopback host. */
export function authorizationUrlRefusal(url: URL): string | undefined {
  if (url.protocol === "https:") return undefined;
  if (url.protocol !== "http:") return `its scheme "${url.protocol}" is not a web address`;
  return isLoopback(url.hostname) ? undefined : `it sends the login over http: to "${url.hostname}"`;
}

/** The tool count when the server lets us in; the refusal when it asked for authorisation. */
async function tryConnect(
  name: string,
  spec: RemoteTransport,
  provider: ReturnType<typeof remoteProvider>,
): Promise<number | { refused: unknown }> {
  const client = new Client({ name: "continue-gateway-auth", version: VERSION });
  try {
    await connectRemote(client, name, spec, provider);
    return (await listAllTools(client)).tools.length;
  } catch (error) {
    // The SDK ends a connect that needs the browser step with UnauthorizedError (wrapped by connectRemote),
    // and a 401 it cannot get past with the tokens it has as a NeedsAuthError.
    if (
      error instanceof UnauthorizedError || error instanceof NeedsAuthError ||
      (error instanceof Error && error.cause instanceof UnauthorizedError)
    ) {
      return { refused: error };
    }
    throw error;
  } finally {
    await client.close().catch(() => {});
  }
}

/** What the server answered, without the gateway's "run gateway-mcp auth" hint. */
function authReason(error: unknown, secrets: readonly string[]): string {
  const cause = error instanceof NeedsAuthError && error.cause instanceof Error ? error.cause : error;
  return failureText(cause instanceof Error ? cause.message || cause.name : String(cause), secrets);
}

/** An authorization server without dynamic registration needs a client registered by hand. */
function registrationHint(error: unknown, name: string): unknown {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const message = cause instanceof Error ? cause.message : String(cause);
  if (!/dynamic client registration/i.test(message)) return error;
  return new Error(
    `${message}: register a client with the provider and give it as "oauth": { "client_id": … } in the "${name}" entry`,
    { cause: error },
  );
}

function remoteEntry(config: GatewayConfig, name: string): RemoteTransport {
  const remotes = config.servers.filter((server) => server.transport.kind === "remote").map((server) =>
    server.name
  );
  const entry = config.servers.find((server) => server.name === name);
  if (!entry || entry.transport.kind !== "remote") {
    const known = remotes.length
      ? `; remote servers: ${remotes.join(", ")}`
      : "; the config has no remote server";
    const where = config.file ? ` in ${config.file}` : " (no config: pass --config <file>)";
    throw new ConfigError(
      `Cannot authorise "${name}": ${
        entry ? "it is not a remote (url) server" : "no such server"
      }${where}${known}`,
    );
  }
  return entry.transport;
}
