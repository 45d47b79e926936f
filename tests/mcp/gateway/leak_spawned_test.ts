/**
 * gateway-mcp spawned as a client spawns it, in front of a hostile remote server (echoing the request's
 * headers) and a leaky stdio server (quoting its env secret, flooding its stderr): no secret in any tool
 * result, nor anywhere in the gateway process's own stderr, which stays small.
 */
import assert from "node:assert/strict";
import type { CallToolResult } from "../../../lib/mcp/sdk.ts";
import { spawnStdio } from "../../_support/stdio.ts";
import { waitFor } from "../../_support/poll.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { startHostileServer } from "./_remote/hostile.ts";
import { scriptServer } from "./_config.ts";
import { assertClean, BEARER, ENV_SECRET, hostileEntry } from "./_leak.ts";

Deno.test("leak: the spawned gateway's results and stderr show no secret of its servers", async () => {
  await using hostile = startHostileServer();
  await using dir = await tempWorkspace();
  hostile.failing = "echo";
  const leaky = scriptServer("leaky", "leaky.ts");
  if (leaky.transport.kind !== "stdio") throw new Error("a stdio entry");
  const config = dir.join("gateway.jsonc");
  await Deno.writeTextFile(
    config,
    JSON.stringify({
      mcpServers: {
        echo: hostileEntry(hostile.url),
        leaky: {
          command: leaky.transport.command,
          args: leaky.transport.args,
          env: { LEAKY_SECRET: ENV_SECRET },
        },
      },
    }),
  );
  const gateway = await spawnStdio("gateway", {
    cwd: dir.path,
    env: { MCP_GATEWAY_CONFIG: config, XDG_CONFIG_HOME: dir.join("xdg") },
  });
  let stderr = "";
  const ended = Promise.withResolvers<void>();
  gateway.transport.stderr?.on("data", (chunk: Uint8Array) => stderr += new TextDecoder().decode(chunk));
  gateway.transport.stderr?.on("end", () => ended.resolve());
  const results: string[] = [];
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await gateway.client.callTool({ name, arguments: args }) as CallToolResult;
    results.push(JSON.stringify(result));
    return result;
  };
  try {
    await waitFor("both servers to be tried", async () => {
      const text = JSON.stringify(await call("gateway_search", { query: "leak" }));
      return !text.includes("connecting");
    });
    assert.ok(hostile.authorizationSeen.includes(`Bearer ${BEARER}`), "the header was sent");
    hostile.failing = undefined;
    // The next search retries the server that is down; wait until it is up.
    await waitFor("the echo server to come up", async () => {
      return !JSON.stringify(await call("gateway_search", { query: "leak" })).includes("down: echo");
    });
    for (
      const name of ["echo__leak", "leaky__fail", "leaky__fail_big", "leaky__fail_result", "leaky__flood"]
    ) {
      await call("gateway_call", { name, arguments: {} });
    }
    await waitFor("the flood to reach the budget", () => stderr.includes("over its log budget"));
  } finally {
    await gateway[Symbol.asyncDispose]();
  }
  await ended.promise;
  assert.equal(results.length > 6, true);
  assert.match(results.join("\n"), /upstream refused the request/);
  assertClean(results.join("\n"), "a tool result");
  assert.match(stderr, /\[leaky\] starting with key \[redacted\]/);
  assertClean(stderr, "the gateway's stderr");
  assert.ok(stderr.length < 100_000, `1.3 MB of downstream stderr made ${stderr.length} characters`);
});
