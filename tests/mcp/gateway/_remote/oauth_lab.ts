/**
 * A real OAuth 2.1 authorization server and a protected MCP server, each on its own 127.0.0.1 port, for
 * the remote-server tests. The authorization server: metadata (RFC 8414), dynamic client registration
 * (RFC 7591), /authorize that approves at once and redirects with a code, /token for authorization_code
 * (PKCE S256 checked; a code is spent by its first use) and refresh_token (rotated), and switches to expire or
 * revoke what it issued, to refuse every PKCE verifier, or to have the MCP server refuse every token. The
 * MCP server: protected-resource metadata (RFC 9728), bearer tokens checked on every request, 401 with
 * `WWW-Authenticate: Bearer resource_metadata=…`, the SDK's McpServer over the web-standard Streamable
 * HTTP server transport.
 * @module
 */
import { z } from "zod";
import { WebStandardStreamableHTTPServerTransport } from "../../../../lib/mcp/sdk.ts";
import { McpServer } from "../../../../lib/mcp/sdk_client.ts";

/** What the lab counted and saw. */
export interface LabCounts {
  registrations: number;
  authorizations: number;
  codeExchanges: number;
  /** Token requests with grant_type authorization_code, accepted or not. */
  codeAttempts: number;
  refreshes: number;
  /** MCP requests refused with 401. */
  refused: number;
}

/** A running lab. */
export interface OAuthLab extends AsyncDisposable {
  /** The protected MCP endpoint. */
  mcpUrl: string;
  issuer: string;
  counts: LabCounts;
  /** Header values of `x-lab-key` the MCP server and the authorization server received. */
  keySeenByMcp: string[];
  keySeenByIssuer: string[];
  /** Each authorised MCP request: its `x-account` header and the access token it carried. */
  callers: { account: string | null; token: string }[];
  /** Makes every access token issued so far invalid (refresh tokens still work). */
  expireAccessTokens(): void;
  /** Revokes every grant: access and refresh tokens alike. */
  revokeAll(): void;
  close(): Promise<void>;
}

interface Grant {
  clientId: string;
  access: string;
  refresh: string;
  accessValid: boolean;
  revoked: boolean;
}

/** How the lab behaves. */
export interface LabOptions {
  /** false: the MCP endpoint takes no auth at all. */
  protect?: boolean;
  accessTtlS?: number;
  /** false: no dynamic client registration. */
  registration?: boolean;
  /** Every PKCE verifier is refused (invalid_grant), as a server with a broken S256 check would. */
  rejectVerifier?: boolean;
  /** The MCP server refuses every token, even one just issued (a misconfigured audience). */
  refuseTokens?: boolean;
  /** The metadata's authorization_endpoint instead of the lab's own (a hostile server's `file:///…`, say). */
  authorizationEndpoint?: string;
}

/** Starts both servers. */
export function startOAuthLab(options: LabOptions = {}): OAuthLab {
  const protect = options.protect ?? true;
  const counts: LabCounts = {
    registrations: 0,
    authorizations: 0,
    codeExchanges: 0,
    codeAttempts: 0,
    refreshes: 0,
    refused: 0,
  };
  const keySeenByMcp: string[] = [];
  const keySeenByIssuer: string[] = [];
  const callers: OAuthLab["callers"] = [];
  const clients = new Map<string, string[]>();
  const codes = new Map<string, { clientId: string; redirectUri: string; challenge: string }>();
  const grants: Grant[] = [];
  const quiet = { hostname: "127.0.0.1", port: 0, onListen: () => {} };

  const issueGrant = (clientId: string) => {
    const grant = {
      clientId,
      access: crypto.randomUUID(),
      refresh: crypto.randomUUID(),
      accessValid: true,
      revoked: false,
    };
    grants.push(grant);
    return Response.json({
      access_token: grant.access,
      token_type: "Bearer",
      expires_in: options.accessTtlS ?? 3600,
      refresh_token: grant.refresh,
    });
  };
  const oauthError = (error: string, description?: string) =>
    Response.json({ error, ...(description ? { error_description: description } : {}) }, { status: 400 });

  const issuerServer: Deno.HttpServer<Deno.NetAddr> = Deno.serve(
    quiet,
    async (request): Promise<Response> => {
      const url = new URL(request.url);
      const key = request.headers.get("x-lab-key");
      if (key) keySeenByIssuer.push(key);
      if (url.pathname === "/.well-known/oauth-authorization-server") {
        return Response.json({
          issuer,
          authorization_endpoint: options.authorizationEndpoint ?? `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          ...(options.registration === false ? {} : { registration_endpoint: `${issuer}/register` }),
          response_types_supported: ["code"],
          grant_types_supported: ["authorization_code", "refresh_token"],
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: ["none"],
        });
      }
      if (url.pathname === "/register" && request.method === "POST") {
        const metadata = await request.json();
        const clientId = crypto.randomUUID();
        clients.set(clientId, metadata.redirect_uris ?? []);
        counts.registrations++;
        return Response.json({ ...metadata, client_id: clientId, client_id_issued_at: 0 }, { status: 201 });
      }
      if (url.pathname === "/authorize") {
        const query = url.searchParams;
        const clientId = query.get("client_id") ?? "";
        const redirectUri = query.get("redirect_uri") ?? "";
        if (!clients.get(clientId)?.includes(redirectUri)) {
          return new Response("unknown client", {
            status: 400,
          });
        }
        if (query.get("code_challenge_method") !== "S256" || !query.get("code_challenge")) {
          return new Response("PKCE S256 required", { status: 400 });
        }
        const code = crypto.randomUUID();
        codes.set(code, { clientId, redirectUri, challenge: query.get("code_challenge")! });
        counts.authorizations++;
        const back = new URL(redirectUri);
        back.searchParams.set("code", code);
        const state = query.get("state");
        if (state) back.searchParams.set("state", state);
        return new Response(null, { status: 302, headers: { location: back.href } });
      }
      if (url.pathname === "/token" && request.method === "POST") {
        const form = new URLSearchParams(await request.text());
        if (form.get("grant_type") === "authorization_code") {
          counts.codeAttempts++;
          const pending = codes.get(form.get("code") ?? "");
          codes.delete(form.get("code") ?? "");
          if (!pending) return oauthError("invalid_grant", "unknown code");
          if (pending.clientId !== form.get("client_id")) {
            return oauthError("invalid_grant", "another client's code");
          }
          if (pending.redirectUri !== form.get("redirect_uri")) {
            return oauthError("invalid_grant", "wrong redirect_uri");
          }
          const verified = await s256(form.get("code_verifier") ?? "") === pending.challenge;
          if (!verified || options.rejectVerifier) {
            return oauthError("invalid_grant", "PKCE verification failed");
          }
          counts.codeExchanges++;
          return issueGrant(pending.clientId);
        }
        if (form.get("grant_type") === "refresh_token") {
          const grant = grants.find((candidate) => candidate.refresh === form.get("refresh_token"));
          if (!grant || grant.revoked || grant.clientId !== form.get("client_id")) {
            return oauthError(
              "invalid_grant",
            );
          }
          grant.revoked = true; // rotated: the old refresh token is spent
          counts.refreshes++;
          return issueGrant(grant.clientId);
        }
        return oauthError("unsupported_grant_type");
      }
      return new Response("not found", { status: 404 });
    },
  );
  const issuer: string = `http://127.0.0.1:${issuerServer.addr.port}`;

  const mcpServer: Deno.HttpServer<Deno.NetAddr> = Deno.serve(quiet, async (request): Promise<Response> => {
    const url = new URL(request.url);
    const key = request.headers.get("x-lab-key");
    if (key) keySeenByMcp.push(key);
    if (url.pathname.startsWith("/.well-known/oauth-protected-resource")) {
      return Response.json({
        resource: mcpUrl,
        authorization_servers: [issuer],
        bearer_methods_supported: ["header"],
      });
    }
    if (url.pathname !== "/mcp") return new Response("not found", { status: 404 });
    // No standalone GET stream (stateless): an idle stream would hold shutdown() open, as the spec allows.
    if (request.method !== "POST") return new Response("Method Not Allowed", { status: 405 });
    if (protect) {
      const token = request.headers.get("authorization")?.match(/^Bearer (.+)$/i)?.[1];
      const grant = grants.find((candidate) => candidate.access === token);
      if (!grant || !grant.accessValid || grant.revoked || options.refuseTokens) {
        counts.refused++;
        return new Response(JSON.stringify({ error: "invalid_token" }), {
          status: 401,
          headers: {
            "content-type": "application/json",
            "www-authenticate":
              `Bearer error="invalid_token", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
          },
        });
      }
      callers.push({ account: request.headers.get("x-account"), token: grant.access });
    }
    // Stateless: a fresh server and transport per request, as the SDK's stateless examples do.
    const server = new McpServer({ name: "lab", version: "1.0.0" });
    server.registerTool("whoami", {
      description: "Say who answers",
      inputSchema: { who: z.string().optional() },
    }, (
      { who },
    ) => ({ content: [{ type: "text", text: `remote lab answers ${who ?? "anyone"}` }] }));
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    return await transport.handleRequest(request);
  });
  const origin: string = `http://127.0.0.1:${mcpServer.addr.port}`;
  const mcpUrl = `${origin}/mcp`;

  const close = async () => {
    await Promise.all([issuerServer.shutdown(), mcpServer.shutdown()]);
  };
  return {
    mcpUrl,
    issuer,
    counts,
    keySeenByMcp,
    keySeenByIssuer,
    callers,
    expireAccessTokens: () => grants.forEach((grant) => grant.accessValid = false),
    revokeAll: () => grants.forEach((grant) => grant.revoked = true),
    close,
    [Symbol.asyncDispose]: close,
  };
}

async function s256(verifier: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  return btoa(String.fromCharCode(...digest)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}
