/**
 * Stateless HTTP builds a gateway per request and closes it with the answer: hosting the shell builtin, every
 * job would die with the call that started it. gateway-mcp refuses that at start, and a per-request boot
 * whose config gained the builtin refuses it too.
 */
import assert from "node:assert/strict";
import { boot } from "../../../mcp/gateway/boot.ts";
import { ConfigError } from "../../../mcp/gateway/config.ts";
import { spawnHttp } from "../../_support/http.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

/** Starts gateway-mcp stateless over `servers`: "listening", or why it did not. */
async function startStateless(config: string): Promise<string> {
  return await spawnHttp("gateway", {
    auth: "none",
    args: ["--stateless"],
    env: { MCP_GATEWAY_CONFIG: config },
  })
    .then(async (server) => {
      await server.stop();
      return "listening";
    }, (error) => String(error));
}

Deno.test("stateless: gateway-mcp hosting the shell builtin refuses --stateless at start; other configs serve", async () => {
  await using dir = await tempWorkspace({
    "shell.jsonc": JSON.stringify({ mcpServers: { sh: { builtin: "shell" }, hi: { builtin: "hello" } } }),
    "hello.jsonc": JSON.stringify({ mcpServers: { hi: { builtin: "hello" } } }),
  });
  assert.match(
    await startStateless(dir.join("shell.jsonc")),
    /exited before listening:[\s\S]*shell\.jsonc: mcpServers\.sh: cannot host the shell builtin stateless: .*drop --stateless/,
  );
  assert.equal(await startStateless(dir.join("hello.jsonc")), "listening");
});

Deno.test("stateless: a per-request boot whose config hosts the shell builtin throws ConfigError", async () => {
  await using dir = await tempWorkspace({
    "gw.jsonc": JSON.stringify({ mcpServers: { sh: { builtin: "shell" } } }),
  });
  await assert.rejects(
    boot(["--config", dir.join("gw.jsonc")], {}, { stateless: true }),
    (error) => error instanceof ConfigError && /cannot host the shell builtin stateless/.test(error.message),
  );
});
