/**
 * Remote servers end to end on 127.0.0.1: a plain Streamable HTTP server with configured headers, an
 * SSE-only server reached by fallback, and an OAuth-protected server behind a real authorization server
 * (tests/mcp/gateway/_remote/oauth_lab.ts): the unauthorised call, the browser flow with an opener that
 * follows the redirect, stored tokens, refresh before expiry and on a 401, and a revoked grant.
 */
import assert from "node:assert/strict";
import { parseConfig } from "../../../mcp/gateway/config.ts";
import { Downstreams } from "../../../mcp/gateway/downstream.ts";
import { authorizeServer } from "../../../mcp/gateway/oauth/authorize.ts";
import { runAuthCommand } from "../../../mcp/gateway/auth_command.ts";
import { defaultTokenDir, type TokenOwner, TokenStore } from "../../../mcp/gateway/oauth/token_store.ts";
import { frontDownstreams } from "../../../mcp/gateway/boot.ts";
import { loadServerSdk } from "../../../lib/mcp/server.ts";
import type { GatewayConfig } from "../../../mcp/gateway/types.ts";
import { ToolError } from "../../../lib/mcp/errors.ts";
import type { CallToolResult } from "../../../lib/mcp/sdk.ts";
import { spawnStdio } from "../../_support/stdio.ts";
import { listServers, runArgs } from "../../../tools/catalog.ts";
import { isWindows, os } from "../../../lib/platform/mod.ts";
import { connect, textOf } from "../../_support/connect.ts";
import { waitFor } from "../../_support/poll.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { startOAuthLab } from "./_remote/oauth_lab.ts";
import { startSseOnlyServer } from "./_remote/sse_only.ts";

const quiet = { info() {}, error() {} };

function configOf(servers: Record<string, unknown>, file = "gateway.jsonc"): GatewayConfig {
  return parseConfig(JSON.stringify({ mcpServers: servers }), file, {});
}

/** Whose tokens the entry `name` of `config` holds. */
function ownerOf(config: GatewayConfig, name: string): TokenOwner {
  const entry = config.servers.find((server) => server.name === name)!;
  if (entry.transport.kind !== "remote") throw new Error(`"${name}" is not remote`);
  return { configFile: entry.transport.configFile, server: name, url: entry.transport.url };
}

/** The "browser": fetches the authorization URL and follows its redirect to the loopback listener. */
async function browser(url: URL): Promise<void> {
  const response = await fetch(url);
  await response.body?.cancel();
  if (!response.ok) throw new Error(`the authorization page answered ${response.status}`);
}

Deno.test("remote: a plain Streamable HTTP server is called, with the configured headers sent to it", async () => {
  await using lab = startOAuthLab({ protect: false });
  await using tokens = await tempWorkspace();
  const config = configOf({ lab: { url: lab.mcpUrl, headers: { "x-lab-key": "k-123" } } });
  await using downstreams = new Downstreams(config.servers, {
    log: quiet,
    remote: { tokenDir: tokens.path },
  });
  await downstreams.start();
  assert.equal(downstreams.status()[0].state, "up", downstreams.status()[0].reason);
  const result = await downstreams.call("lab__whoami", { who: "plain" });
  assert.equal(textOf(result), "remote lab answers plain");
  assert.ok(lab.keySeenByMcp.length > 0 && lab.keySeenByMcp.every((key) => key === "k-123"));
});

Deno.test("remote: a server that speaks only the old SSE transport is reached by fallback", async () => {
  await using old = startSseOnlyServer();
  const config = configOf({ old: { url: old.url } });
  await using downstreams = new Downstreams(config.servers, { log: quiet, remote: {} });
  await downstreams.start();
  assert.equal(downstreams.status()[0].state, "up", downstreams.status()[0].reason);
  assert.equal(textOf(await downstreams.call("old__ping", {})), "pong over sse");
  assert.ok(old.refusedPosts >= 1, "the Streamable HTTP attempt came first");
});

Deno.test('remote: an explicit "type": "http" does not fall back to SSE', async () => {
  await using old = startSseOnlyServer();
  const config = configOf({ old: { url: old.url, type: "http" } });
  await using downstreams = new Downstreams(config.servers, { log: quiet, remote: {} });
  await downstreams.start();
  const [status] = downstreams.status();
  assert.equal(status.state, "down");
  assert.match(status.reason ?? "", /Method Not Allowed/);
});

Deno.test("remote OAuth: unauthorised → hint; auth flow stores 0600 tokens; calls work; refresh; revoke", async () => {
  await using lab = startOAuthLab();
  await using tokens = await tempWorkspace();
  const tokenDir = `${tokens.path}/continue-mcp/oauth`;
  const config = configOf({ lab: { url: lab.mcpUrl, headers: { "x-lab-key": "mcp-only" } } });
  await using downstreams = new Downstreams(config.servers, { log: quiet, remote: { tokenDir } });
  await downstreams.start();

  // 1. No token: the gateway opens no browser; the server is down with the command to run.
  let [status] = downstreams.status();
  assert.equal(status.state, "down");
  assert.equal(status.needsAuth, true);
  assert.match(status.reason ?? "", /MCP server "lab": it needs authorisation; run "gateway-mcp auth lab"/);
  assert.equal(lab.counts.registrations, 0, "serving, the gateway registers no client on its own");
  assert.equal(lab.counts.authorizations, 0);
  await loadServerSdk();
  // The gateway exactly as boot.ts fronts its downstreams (the test closes them itself).
  const handle = frontDownstreams(downstreams, { workspaceRoots: [], cleanup: () => Promise.resolve() });
  await using client = await connect(handle);
  const refused = await client.call("gateway_call", { name: "lab__whoami", arguments: {} });
  assert.equal(refused.isError, true);
  assert.match(textOf(refused), /^Error \[unavailable\].*MCP server "lab".*gateway-mcp auth lab/);
  assert.match(
    await client.text("gateway_search", { query: "whoami" }),
    /needs auth: lab \(run "gateway-mcp auth lab"\)/,
  );

  // 2. The auth command's flow: discovery, registration, PKCE, the redirect to the loopback listener.
  const said: string[] = [];
  const authorised = await authorizeServer({
    config,
    name: "lab",
    tokenDir,
    open: browser,
    say: (l) => said.push(l),
  });
  assert.deepEqual(authorised, { authorised: true, tools: 1 });
  assert.match(
    said.join("\n"),
    /Open this URL to authorise "lab".*\nhttp:\/\/127\.0\.0\.1:\d+\/authorize\?/s,
  );
  assert.equal(lab.counts.registrations, 1);
  assert.equal(lab.counts.codeExchanges, 1);
  assert.deepEqual(lab.keySeenByIssuer, [], "the configured headers never reach the authorization server");
  const store = new TokenStore(tokenDir);
  const owner = ownerOf(config, "lab");
  const file = await store.fileOf(owner);
  assert.ok(file.startsWith(tokenDir));
  if (!isWindows) {
    assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);
    assert.equal((await Deno.stat(tokenDir)).mode! & 0o777, 0o700);
  }
  const stored = await store.read(owner);
  assert.ok(stored.tokens?.access_token && stored.tokens.refresh_token && stored.client?.client_id);
  assert.ok((stored.tokens.expires_at ?? 0) > Date.now(), "expires_at is tracked");

  // 3. The running gateway picks the tokens up on its next search: no restart, no backoff.
  await client.text("gateway_search", { query: "whoami" });
  await waitFor("the lab server to come up", () => downstreams.status()[0].state === "up");
  assert.equal(
    await client.text("gateway_call", { name: "lab__whoami", arguments: { who: "me" } }),
    "remote lab answers me",
  );

  // 4. An access token about to expire is refreshed before it is sent (no 401 first).
  await store.update(
    owner,
    (current) => ({ ...current, tokens: { ...current.tokens!, expires_at: Date.now() } }),
  );
  const refusedBefore = lab.counts.refused;
  assert.equal(textOf(await downstreams.call("lab__whoami", { who: "early" })), "remote lab answers early");
  assert.equal(lab.counts.refreshes, 1);
  assert.equal(lab.counts.refused, refusedBefore, "refreshed before use, not after a 401");

  // 5. A token the server stopped accepting: the 401 makes the SDK refresh, and the call goes through.
  lab.expireAccessTokens();
  assert.equal(textOf(await downstreams.call("lab__whoami", { who: "late" })), "remote lab answers late");
  assert.equal(lab.counts.refreshes, 2);

  // 6. A revoked grant: unavailable with the hint, and status says it needs auth.
  lab.revokeAll();
  await assert.rejects(downstreams.call("lab__whoami", {}), (error: unknown) => {
    assert.ok(error instanceof ToolError);
    assert.equal(error.code, "unavailable");
    assert.match(error.message, /MCP server "lab".*run "gateway-mcp auth lab"/);
    return true;
  });
  [status] = downstreams.status();
  assert.equal(status.needsAuth, true);
  assert.equal(lab.counts.authorizations, 1, "no browser step was started by the gateway");
});

Deno.test("gateway-mcp auth: usage errors, unknown or non-remote servers, and a server that asks nothing", async () => {
  await using lab = startOAuthLab({ protect: false });
  await using dir = await tempWorkspace({
    "gateway.jsonc": JSON.stringify({
      mcpServers: { lab: { url: "http://127.0.0.1:9/mcp" }, fs: { builtin: "fs" } },
    }),
  });
  const env = { HOME: dir.path, XDG_CONFIG_HOME: dir.join("config") };
  assert.equal(await runAuthCommand([], env), 2);
  assert.equal(await runAuthCommand(["lab", "--bogus"], env), 2);
  assert.equal(await runAuthCommand(["nope", "--config", dir.join("gateway.jsonc")], env), 1);
  await assert.rejects(
    authorizeServer({
      config: configOf({ fs: { builtin: "fs" } }),
      name: "fs",
      tokenDir: dir.path,
      open: browser,
      say() {},
    }),
    /Cannot authorise "fs": it is not a remote \(url\) server/,
  );
  const open = authorizeServer({
    config: configOf({ lab: { url: lab.mcpUrl } }),
    name: "lab",
    tokenDir: dir.join("config"),
    open: () => Promise.reject(new Error("no browser needed")),
    say() {},
  });
  assert.deepEqual(await open, { authorised: false, tools: 1 });
  assert.equal(lab.counts.registrations, 0);
});

Deno.test({
  name:
    "gateway-mcp as spawned: tokens from the user's config folder (XDG_CONFIG_HOME) reach the remote server",
  // XDG_CONFIG_HOME is the Linux rule (macOS and Windows have their own folder, tested in desktop_test.ts).
  ignore: os !== "linux",
  fn: async () => {
    await using lab = startOAuthLab();
    await using dir = await tempWorkspace();
    const configHome = dir.join("xdg");
    const file = dir.join("gateway.jsonc");
    await Deno.writeTextFile(file, JSON.stringify({ mcpServers: { lab: { url: lab.mcpUrl } } }));
    const config = configOf({ lab: { url: lab.mcpUrl } }, file);
    const tokenDir = defaultTokenDir({ XDG_CONFIG_HOME: configHome, HOME: dir.path });
    assert.equal(tokenDir, `${configHome}/continue-mcp/oauth`);
    await authorizeServer({ config, name: "lab", tokenDir, open: browser, say() {} });
    // The gateway finds the same config through a symbolic link (a dotfiles folder): the same entry.
    const linked = dir.join("linked.jsonc");
    await Deno.symlink(file, linked);
    await using gateway = await spawnStdio("gateway", {
      cwd: dir.path,
      env: { MCP_GATEWAY_CONFIG: linked, XDG_CONFIG_HOME: configHome },
    });
    const result = await gateway.client.callTool({
      name: "gateway_call",
      arguments: { name: "lab__whoami", arguments: { who: "spawned" } },
    });
    assert.equal(textOf(result as CallToolResult), "remote lab answers spawned");
  },
});

Deno.test({
  name:
    "gateway-mcp auth <server>, run as a command on a machine with no browser: prints the URL, then stores tokens",
  // An empty PATH hides xdg-open / open; Windows finds rundll32 in its system folder whatever PATH says.
  ignore: isWindows,
  fn: async () => {
    await using lab = startOAuthLab();
    await using dir = await tempWorkspace({ "bin/": "" });
    const file = dir.join("gateway.jsonc");
    await Deno.writeTextFile(file, JSON.stringify({ mcpServers: { lab: { url: lab.mcpUrl } } }));
    const gateway = listServers().find((server) => server.name === "gateway")!;
    const child = new Deno.Command(Deno.execPath(), {
      args: [...runArgs(gateway), "auth", "lab", "--config", file],
      env: { XDG_CONFIG_HOME: dir.join("xdg"), PATH: dir.join("bin") },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const stdout = new Response(child.stdout).text();
    // The user's part: read the printed URL and open it "elsewhere" (here: follow it with fetch).
    const lines = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
    let stderr = "";
    let opened = false;
    for (let chunk = await lines.read(); !chunk.done; chunk = await lines.read()) {
      stderr += chunk.value;
      const url = stderr.match(/^(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m)?.[1];
      if (url && !opened) {
        opened = true;
        await browser(new URL(url));
      }
    }
    const { code } = await child.status;
    assert.equal(code, 0, stderr);
    assert.equal(await stdout, "", "stdout stays empty: nothing but the protocol may use it");
    assert.match(stderr, /Could not open a browser .*open the URL yourself/);
    assert.match(stderr, /Authorised "lab": 1 tools; tokens stored under .*\/xdg\/continue-mcp\/oauth/);
    assert.doesNotMatch(
      stderr,
      new RegExp(
        (await new TokenStore(dir.join("xdg/continue-mcp/oauth")).read({
          configFile: file,
          server: "lab",
          url: lab.mcpUrl,
        })).tokens!.access_token,
      ),
    );
  },
});

Deno.test("gateway-mcp auth: an authorization server without dynamic registration gets a clear hint", async () => {
  await using lab = startOAuthLab({ registration: false });
  await using dir = await tempWorkspace();
  await assert.rejects(
    authorizeServer({
      config: configOf({ lab: { url: lab.mcpUrl } }),
      name: "lab",
      tokenDir: dir.path,
      open: browser,
      say() {},
    }),
    /does not support dynamic client registration: register a client .* "oauth": \{ "client_id": … \} in the "lab" entry/,
  );
  assert.equal(lab.counts.authorizations, 0);
});
