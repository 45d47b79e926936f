/**
 * The attack HTTP mode must stop: a server a user (root, here) started with `--http 127.0.0.1:0` and no
 * MCP_HTTP_TOKEN, and another local process or user that reaches the port and runs a tool as that user.
 * @module
 */
import assert from "node:assert/strict";
import { connectHttpClient, httpRunArgs, INITIALIZE_BODY, postMcp, spawnHttp } from "../../_support/http.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { isWindows } from "../../../lib/platform/mod.ts";
import { findOnPath } from "../../../lib/platform/which.ts";

const SHELL_RUN = (command: string) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "shell_run", arguments: { command } },
  });

Deno.test("http auth: a server started without MCP_HTTP_TOKEN answers 401 to a local client without the token", async () => {
  await using workspace = await tempWorkspace();
  await using home = await tempWorkspace();
  await using server = await spawnHttp("shell", {
    auth: { configHome: home.path },
    cwd: workspace.path,
    env: { MCP_WORKSPACE: workspace.path },
  });
  // The attacker's requests: initialize, then a tool call straight away; nothing may run.
  const refused = await postMcp(server.url, {});
  assert.equal(refused.status, 401);
  assert.match(refused.headers.get("www-authenticate") ?? "", /^Bearer\b/);
  assert.match(refused.text, /Missing or wrong bearer token/);
  assert.equal((await postMcp(server.url, {}, SHELL_RUN("touch pwned"))).status, 401);
  assert.equal(await Deno.stat(workspace.join("pwned")).catch(() => null), null);
  // The token is in the per-user file, and only its path is in the log.
  const token = server.headers.authorization.slice("Bearer ".length);
  const { port } = new URL(server.url);
  assert.match(
    server.stderr(),
    new RegExp(`Authorization: Bearer <contents of .*continue-mcp.http-token-${port}>`),
  );
  assert.ok(!server.stderr().includes(token), "the token itself must never be logged");
  for (
    const wrong of [`Bearer ${token.slice(0, -1)}x`, `Bearer ${token}x`, "Bearer x", `Basic ${token}`, token]
  ) {
    assert.equal((await postMcp(server.url, { authorization: wrong })).status, 401, wrong);
  }
  for (const right of [`bearer ${token}`, `BEARER   ${token}  `, `Bearer ${token}`]) {
    assert.equal((await postMcp(server.url, { authorization: right })).status, 200, right);
  }
  const { client } = await connectHttpClient(server.url, server.headers);
  const result = await client.callTool({ name: "shell_run", arguments: { command: "echo ran" } });
  assert.match(JSON.stringify(result.content), /ran/);
  await client.close();
});

/** The attack as a shell script with curl: initialize, initialized, tools/call shell_run; prints body and status. */
const CURL_ATTACK = `
h="content-type: application/json"; a="accept: application/json, text/event-stream"
sid=$(curl -s -D - -o /dev/null -H "$h" -H "$a" --data "$INIT" "$URL" | tr -d '\\r' |
  sed -n 's/^mcp-session-id: //Ip')
v="mcp-protocol-version: 2025-11-25"
curl -s -o /dev/null -H "$h" -H "$a" -H "$v" -H "mcp-session-id: $sid" \\
  --data '{"jsonrpc":"2.0","method":"notifications/initialized"}' "$URL"
curl -s -w '\\nstatus %{http_code}' -H "$h" -H "$a" -H "$v" -H "mcp-session-id: $sid" --data "$CALL" "$URL"
`;

Deno.test({
  name:
    "http auth: another local user (nobody) with curl cannot read the token nor run id in a root-started shell",
  ignore: isWindows || Deno.uid() !== 0 || !await findOnPath("setpriv") || !await findOnPath("curl"),
  async fn() {
    await using workspace = await tempWorkspace();
    await using home = await tempWorkspace();
    await using server = await spawnHttp("shell", {
      auth: { configHome: home.path },
      cwd: workspace.path,
      env: { MCP_WORKSPACE: workspace.path },
    });
    const asNobody = (args: string[], env: Record<string, string> = {}) =>
      new Deno.Command("setpriv", {
        args: ["--reuid=65534", "--regid=65534", "--clear-groups", ...args],
        env,
        stdin: "null",
      }).output();
    const cat = await asNobody(["cat", `${home.path}/continue-mcp/http-token-${new URL(server.url).port}`]);
    assert.notEqual(cat.code, 0);
    assert.match(new TextDecoder().decode(cat.stderr), /Permission denied/);
    const attack = await asNobody(["sh", "-c", CURL_ATTACK], {
      URL: server.url,
      INIT: INITIALIZE_BODY,
      CALL: SHELL_RUN("id; head -c 40 /etc/shadow"),
    });
    const output = new TextDecoder().decode(attack.stdout);
    assert.doesNotMatch(output, /uid=0/);
    assert.match(output, /"Missing or wrong bearer token".*\nstatus 401$/);
  },
});

Deno.test("http auth: --no-auth serves loopback without a token after a loud warning", async () => {
  await using server = await spawnHttp("hello", { auth: "none" });
  assert.equal((await postMcp(server.url, {})).status, 200);
  assert.match(
    server.stderr(),
    /\[error\] WARNING: --no-auth: no bearer token, so every local user and process/,
  );
});

Deno.test("http auth: --no-auth beyond loopback refuses to start (exit 2, one line why)", async () => {
  const args = httpRunArgs("hello", ["--no-auth"]).map((arg) => arg === "127.0.0.1:0" ? "0.0.0.0:0" : arg);
  const output = await new Deno.Command(Deno.execPath(), { args, stdin: "null", stdout: "null" }).output();
  assert.equal(output.code, 2);
  assert.equal(
    new TextDecoder().decode(output.stderr),
    '[error] Refusing --no-auth on "0.0.0.0": without a token anyone who reaches it runs tools as you; ' +
      "drop the flag or listen on 127.0.0.1\n",
  );
});
