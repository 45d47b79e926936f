import assert from "node:assert/strict";
import { GatewayOAuthProvider } from "../../../mcp/gateway/oauth/provider.ts";
import { NeedsAuthError } from "../../../mcp/gateway/oauth/needs_auth.ts";
import { TokenStore } from "../../../mcp/gateway/oauth/token_store.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

const URL_A = "https://mcp.example.com/mcp";
/** The entry the providers below serve (built with no config file). */
const OWNER_A = { server: "a", url: URL_A };

Deno.test("oauth provider: serving, it neither registers a client nor opens a browser", async () => {
  await using dir = await tempWorkspace();
  const provider = new GatewayOAuthProvider({
    server: "a",
    serverUrl: URL_A,
    store: new TokenStore(dir.path),
    oauth: {},
  });
  await assert.rejects(Promise.resolve(provider.clientInformation()), NeedsAuthError);
  await assert.rejects(
    Promise.resolve(provider.redirectToAuthorization(new URL("https://auth.example/authorize"))),
    (error) => {
      assert.ok(error instanceof NeedsAuthError);
      assert.equal(error.code, "unavailable");
      assert.equal(
        error.message,
        'Cannot connect to MCP server "a": it needs authorisation; run "gateway-mcp auth a" in a terminal, then retry',
      );
      return true;
    },
  );
  const configured = new GatewayOAuthProvider({
    server: "a",
    serverUrl: URL_A,
    store: new TokenStore(dir.path),
    oauth: { clientId: "pre-registered" },
  });
  assert.deepEqual(await configured.clientInformation(), { client_id: "pre-registered" });
});

Deno.test("oauth provider: expires_at is stamped; a refused grant drops only the tokens it used", async () => {
  await using dir = await tempWorkspace();
  const store = new TokenStore(dir.path);
  const provider = new GatewayOAuthProvider({
    server: "a",
    serverUrl: URL_A,
    store,
    oauth: {},
    now: () => 1_000,
  });
  await provider.saveClientInformation({ client_id: "c1" });
  await provider.saveTokens({
    access_token: "A1",
    token_type: "Bearer",
    expires_in: 3600,
    refresh_token: "R1",
  });
  assert.equal((await store.read(OWNER_A)).tokens?.expires_at, 3_601_000);
  assert.equal((await provider.tokens())?.refresh_token, "R1");
  // Another gateway process refreshed in the meantime: its tokens must survive our refused refresh.
  await store.update(
    OWNER_A,
    (stored) => ({ ...stored, tokens: { access_token: "A2", token_type: "Bearer", refresh_token: "R2" } }),
  );
  await provider.invalidateCredentials("tokens");
  assert.equal((await store.read(OWNER_A)).tokens?.refresh_token, "R2");
  // Our own tokens refused: dropped, the client kept.
  assert.equal((await provider.tokens())?.refresh_token, "R2");
  await provider.invalidateCredentials("tokens");
  assert.deepEqual(await store.read(OWNER_A), { client: { client_id: "c1" } });
});
