/**
 * `gateway-mcp auth` against a real OAuth lab on 127.0.0.1 (issue 23, item 10): the first search or call
 * after it reaches the server; a refused PKCE verifier sends the code once and shows the refusal; a redirect
 * with another state is refused in the browser page too; a server refusing even fresh tokens is not answered
 * with the command just run; a failed run changes nothing stored.
 */
import assert from "node:assert/strict";
import { parseConfig } from "../../../mcp/gateway/config.ts";
import { Downstreams } from "../../../mcp/gateway/downstream.ts";
import { frontDownstreams } from "../../../mcp/gateway/boot.ts";
import { authorizeServer } from "../../../mcp/gateway/oauth/authorize.ts";
import { TokenStore } from "../../../mcp/gateway/oauth/token_store.ts";
import { loadServerSdk } from "../../../lib/mcp/server.ts";
import type { GatewayConfig } from "../../../mcp/gateway/types.ts";
import { connect } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { type OAuthLab, startOAuthLab } from "./_remote/oauth_lab.ts";

const quiet = { info() {}, error() {} };

function labConfig(lab: OAuthLab): GatewayConfig {
  return parseConfig(JSON.stringify({ mcpServers: { lab: { url: lab.mcpUrl } } }), "gateway.jsonc", {});
}

/** What the browser showed: the loopback page's status and text. */
interface Page {
  status: number;
  text: string;
}

/** A browser that approves and follows the redirect, changing its `state` first when `state` is given. */
function browser(pages: Page[], state?: string): (url: URL) => Promise<void> {
  return async (url) => {
    const approval = await fetch(url, { redirect: "manual" });
    await approval.body?.cancel();
    const back = new URL(approval.headers.get("location")!);
    if (state !== undefined) back.searchParams.set("state", state);
    const page = await fetch(back);
    pages.push({ status: page.status, text: await page.text() });
  };
}

/** The gateway over the lab, started while it has no tokens (lab is down: needs auth). */
async function unauthorisedGateway(config: GatewayConfig, tokenDir: string) {
  const downstreams = new Downstreams(config.servers, { log: quiet, remote: { tokenDir } });
  await downstreams.start();
  assert.equal(downstreams.status()[0].needsAuth, true);
  await loadServerSdk();
  return await connect(frontDownstreams(downstreams, {
    workspaceRoots: [],
    cleanup: () => downstreams.close(),
  }));
}

Deno.test("auth: the first search after gateway-mcp auth finds the server's tools, without asking to authorise", async () => {
  await using lab = startOAuthLab();
  await using tokens = await tempWorkspace();
  const config = labConfig(lab);
  await using client = await unauthorisedGateway(config, tokens.path);
  assert.match(await client.text("gateway_search", { query: "who answers" }), /needs auth: lab/);
  await authorizeServer({ config, name: "lab", tokenDir: tokens.path, open: browser([]), say() {} });
  const found = await client.text("gateway_search", { query: "who answers" });
  assert.match(found, /^lab__whoami — Say who answers/);
  assert.doesNotMatch(found, /needs auth|gateway-mcp auth/);
});

Deno.test("auth: the first call after gateway-mcp auth reaches the server, without asking to authorise", async () => {
  await using lab = startOAuthLab();
  await using tokens = await tempWorkspace();
  const config = labConfig(lab);
  await using client = await unauthorisedGateway(config, tokens.path);
  await authorizeServer({ config, name: "lab", tokenDir: tokens.path, open: browser([]), say() {} });
  // Seen attacking the gateway: "run gateway-mcp auth lab" first, the same call 300 ms later worked.
  assert.equal(
    await client.text("gateway_call", { name: "lab__whoami", arguments: { who: "me" } }),
    "remote lab answers me",
  );
});

Deno.test("auth: a refused PKCE verifier sends the code once and says why; nothing is stored", async () => {
  await using lab = startOAuthLab({ rejectVerifier: true });
  await using tokens = await tempWorkspace();
  const pages: Page[] = [];
  const config = labConfig(lab);
  const run = authorizeServer({ config, name: "lab", tokenDir: tokens.path, open: browser(pages), say() {} });
  await assert.rejects(run, (error: Error) => {
    assert.match(error.message, /refused the authorization code: invalid_grant \(PKCE verification failed\)/);
    assert.doesNotMatch(error.message, /unknown code/);
    return true;
  });
  assert.equal(lab.counts.codeAttempts, 1, "a code is good for one exchange: it is sent once");
  assert.equal(lab.counts.registrations, 1);
  assert.deepEqual(await Array.fromAsync(Deno.readDir(tokens.path)), [], "no client registration is kept");
  assert.doesNotMatch(pages[0].text, /^Authorised/);
});

Deno.test("auth: a redirect carrying another state is refused in the browser page as in the terminal", async () => {
  await using lab = startOAuthLab();
  await using tokens = await tempWorkspace();
  const config = labConfig(lab);
  await authorizeServer({ config, name: "lab", tokenDir: tokens.path, open: browser([]), say() {} });
  const store = new TokenStore(tokens.path);
  const owner = {
    configFile: config.servers[0].transport.kind === "remote" ? config.servers[0].transport.configFile : "",
    server: "lab",
    url: lab.mcpUrl,
  };
  const before = await Deno.readTextFile(await store.fileOf(owner));
  const pages: Page[] = [];
  await assert.rejects(
    authorizeServer({ config, name: "lab", tokenDir: tokens.path, open: browser(pages, "forged"), say() {} }),
    /state does not match/,
  );
  assert.equal(pages.length, 1);
  assert.equal(pages[0].status, 400);
  assert.match(pages[0].text, /^Authorisation refused/);
  assert.equal(lab.counts.codeAttempts, 1, "only the first run's code was exchanged");
  // The failed run registered a client of its own: what the first run stored is untouched.
  assert.equal(lab.counts.registrations, 2);
  assert.equal(await Deno.readTextFile(await store.fileOf(owner)), before);
});

Deno.test("auth: a server that refuses even fresh tokens is not answered with the command just run", async () => {
  await using lab = startOAuthLab({ refuseTokens: true });
  await using tokens = await tempWorkspace();
  const config = labConfig(lab);
  const run = authorizeServer({ config, name: "lab", tokenDir: tokens.path, open: browser([]), say() {} });
  await assert.rejects(run, (error: Error) => {
    assert.match(error.message, /MCP server "lab" refused the tokens its authorization server just issued/);
    assert.doesNotMatch(error.message, /run "gateway-mcp auth/);
    return true;
  });
  assert.equal(lab.counts.codeExchanges, 1);
  assert.deepEqual(
    await Array.fromAsync(Deno.readDir(tokens.path)),
    [],
    "tokens that do not work are not kept",
  );
});
