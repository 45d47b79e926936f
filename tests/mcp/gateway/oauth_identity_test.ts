/**
 * OAuth tokens belong to a config entry, not to a URL: two entries reaching one server (two accounts, told
 * apart by a header or by nothing but the login) each keep their own token file, and each call carries its
 * own entry's token; a token file of the old URL-keyed kind is used for no entry. Against the real
 * authorization server and protected MCP server of _remote/oauth_lab.ts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseConfig } from "../../../mcp/gateway/config.ts";
import { Downstreams } from "../../../mcp/gateway/downstream.ts";
import { authorizeServer } from "../../../mcp/gateway/oauth/authorize.ts";
import { sha256Hex } from "../../../lib/fs/sha256.ts";
import type { GatewayConfig } from "../../../mcp/gateway/types.ts";
import { textOf } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { startOAuthLab } from "./_remote/oauth_lab.ts";

const quiet = { info() {}, error() {} };

/** The "browser": fetches the authorization URL and follows its redirect to the loopback listener. */
async function browser(url: URL): Promise<void> {
  const response = await fetch(url);
  await response.body?.cancel();
  if (!response.ok) throw new Error(`the authorization page answered ${response.status}`);
}

/** The access token of every token file in `dir`. */
async function storedTokens(dir: string): Promise<string[]> {
  const tokens: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.name.endsWith(".json")) continue;
    tokens.push(JSON.parse(await Deno.readTextFile(join(dir, entry.name))).tokens.access_token);
  }
  return tokens.sort();
}

async function authorizeBoth(config: GatewayConfig, tokenDir: string): Promise<void> {
  for (const name of ["work", "home"]) {
    assert.deepEqual(
      await authorizeServer({ config, name, tokenDir, open: browser, say() {} }),
      { authorised: true, tools: 1 },
    );
  }
}

for (
  const [told, headers] of [
    ["by an X-Account header", (account: string) => ({ headers: { "X-Account": account } })],
    ["by nothing but the login", () => ({})],
  ] as const
) {
  Deno.test(`oauth identity: two entries for one URL, told apart ${told}, keep two tokens and call with their own`, async () => {
    await using lab = startOAuthLab();
    await using dir = await tempWorkspace();
    const tokenDir = dir.join("oauth");
    const config = parseConfig(
      JSON.stringify({
        mcpServers: {
          work: { url: lab.mcpUrl, ...headers("work") },
          home: { url: lab.mcpUrl, ...headers("home") },
        },
      }),
      dir.join("gateway.jsonc"),
      {},
    );
    await authorizeBoth(config, tokenDir);
    const tokens = await storedTokens(tokenDir);
    assert.equal(tokens.length, 2, "one token file per entry");
    assert.notEqual(tokens[0], tokens[1]);

    await using downstreams = new Downstreams(config.servers, { log: quiet, remote: { tokenDir } });
    await downstreams.start();
    const used: Record<string, string> = {};
    for (const name of ["work", "home"]) {
      lab.callers.length = 0;
      assert.equal(
        textOf(await downstreams.call(`${name}__whoami`, { who: name })),
        `remote lab answers ${name}`,
      );
      const carried = new Set(lab.callers.map((caller) => caller.token));
      assert.equal(carried.size, 1, `${name}'s calls carried one token`);
      used[name] = [...carried][0];
      if (told !== "by nothing but the login") {
        assert.ok(lab.callers.every((caller) => caller.account === name));
      }
    }
    assert.notEqual(used.work, used.home, "each entry calls with its own token");
    assert.deepEqual([used.work, used.home].sort(), tokens);
  });
}

Deno.test("oauth identity: a token file of the old URL-keyed kind is used for no entry", async () => {
  await using lab = startOAuthLab();
  await using dir = await tempWorkspace();
  const tokenDir = dir.join("oauth");
  const entry = (name: string) =>
    parseConfig(
      JSON.stringify({ mcpServers: { [name]: { url: lab.mcpUrl } } }),
      dir.join("gateway.jsonc"),
      {},
    );
  await authorizeServer({ config: entry("work"), name: "work", tokenDir, open: browser, say() {} });
  const [file] = (await Array.fromAsync(Deno.readDir(tokenDir))).map((found) => join(tokenDir, found.name));
  const stored = JSON.parse(await Deno.readTextFile(file));
  // What an earlier gateway wrote for this URL, for whichever entry was authorised last.
  const legacy = join(
    tokenDir,
    `${(await sha256Hex(new TextEncoder().encode(lab.mcpUrl))).slice(0, 32)}.json`,
  );
  await Deno.remove(file);
  await Deno.writeTextFile(
    legacy,
    JSON.stringify({ serverUrl: lab.mcpUrl, client: stored.client, tokens: stored.tokens }),
    { mode: 0o600 },
  );
  const calledBefore = lab.callers.length;

  await using downstreams = new Downstreams(entry("home").servers, { log: quiet, remote: { tokenDir } });
  await downstreams.start();
  const [status] = downstreams.status();
  assert.equal(status.state, "down");
  assert.equal(status.needsAuth, true, status.reason);
  assert.equal(lab.callers.length, calledBefore, "no call carried the old file's token");

  // Authorising the entry replaces the old file: it is gone, and the entry has its own.
  await authorizeServer({ config: entry("home"), name: "home", tokenDir, open: browser, say() {} });
  assert.equal(
    await Deno.lstat(legacy).then(() => true, () => false),
    false,
    "the URL-keyed file is removed",
  );
  assert.equal((await storedTokens(tokenDir)).length, 1);
});
