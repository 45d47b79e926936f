/**
 * Downstream servers that jam the gateway's flow: one that never answers initialize while the config is
 * edited, a question orphaned by a cancelled call, a flood of progress, a remote stream cut mid-call.
 */
import assert from "node:assert/strict";
import { boot } from "../../../mcp/gateway/boot.ts";
import { parseConfig } from "../../../mcp/gateway/config.ts";
import { startDropper } from "./_remote/dropper.ts";
import { connect } from "../../_support/connect.ts";
import { waitFor } from "../../_support/poll.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { textOf } from "../../_support/connect.ts";
import { type CallToolResult, ElicitRequestSchema } from "../../../lib/mcp/sdk.ts";
import { scriptServer } from "./_config.ts";
import { front } from "./_gateway.ts";

/** A config entry spawning `_servers/<script>`, as the config file spells it. */
function entry(script: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const server = scriptServer("x", script);
  if (server.transport.kind !== "stdio") throw new Error("a stdio entry");
  return { command: server.transport.command, args: server.transport.args, ...extra };
}

Deno.test("hostile flow: a new server that never answers initialize does not hold back the next reload", async () => {
  await using dir = await tempWorkspace();
  const file = dir.join("gateway.jsonc");
  const save = (servers: Record<string, unknown>) =>
    Deno.writeTextFile(file, JSON.stringify({ mcpServers: servers }));
  await save({ one: entry("fixture.ts") });
  await using gateway = await connect(await boot(["--config", file], {}));
  const search = () => gateway.text("gateway_search", { query: "process id" });
  await waitFor("the first server", async () => (await search()).includes("one__pid"));
  // Its connect timeout is 30 s: a reload that waited for it would apply the next edit 30 s late.
  await save({ one: entry("fixture.ts"), mute: entry("silent.ts", { connect_timeout_s: 30 }) });
  await waitFor("the mute server to be added", async () => (await search()).includes("connecting: mute"));
  await save({
    one: entry("fixture.ts"),
    mute: entry("silent.ts", { connect_timeout_s: 30 }),
    two: entry("fixture.ts", { env: { ROLE: "two" } }),
  });
  await waitFor("the next edit to apply", async () => (await search()).includes("two__pid"));
  assert.match(await search(), /connecting: mute/);
});

Deno.test("hostile flow: a question orphaned by a cancelled call is withdrawn upstream; the next server's is asked at once", async () => {
  const asked: { message: string; withdrawn: boolean }[] = [];
  // Different env: two processes. chatty never cancels its question when its call is cancelled.
  await using gateway = await front([
    scriptServer("a", "chatty.ts"),
    scriptServer("b", "chatty.ts", { env: { WHO: "b" }, callTimeoutMs: 8_000 }),
  ], {
    capabilities: { elicitation: {} },
    prepare: (client) =>
      client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
        const question = { message: request.params.message, withdrawn: false };
        asked.push(question);
        // The second question is the orphan: its user never answers; the others say yes.
        if (asked.length !== 2) return { action: "accept", content: { sure: true } };
        return new Promise((resolve) =>
          extra.signal.addEventListener("abort", () => {
            question.withdrawn = true;
            resolve({ action: "cancel" });
          })
        );
      }),
  });
  // The SDK ignores a cancellation of request id 0: the gateway's first question is answered.
  assert.equal(JSON.parse(textOf(await gateway.call("a__ask"))).action, "accept");
  const stop = new AbortController();
  const orphaned = gateway.client.callTool(
    { name: "gateway_call", arguments: { name: "a__ask" } },
    undefined,
    { signal: stop.signal },
  );
  orphaned.catch(() => {});
  await waitFor("a's question to reach the user", () => asked.length === 2);
  stop.abort(new Error("the user moved on"));
  await waitFor("the orphaned question to be withdrawn upstream", () => asked[1].withdrawn);
  assert.match(textOf(await gateway.call("b__ask")), /^\{"action":"accept"/);
  assert.equal(asked.length, 3);
});

Deno.test("hostile flow: 100,000 progress notifications in one call reach the client coalesced, in order, the last before the result", async () => {
  await using gateway = await front([scriptServer("hostile", "hostile.ts")]);
  const seen: number[] = [];
  const result = await gateway.client.callTool(
    { name: "gateway_call", arguments: { name: "hostile__flood", arguments: { count: 100_000 } } },
    undefined,
    { onprogress: (update) => seen.push(update.progress) },
  );
  assert.equal(textOf(result as CallToolResult), "flooded");
  assert.equal(seen.at(-1), 100_000, "the latest progress arrives, before the result");
  assert.ok(seen.every((value, i) => i === 0 || value > seen[i - 1]), "in order");
  // Relayed one by one, the flood cost the gateway ~140 MB and other servers' calls seconds.
  assert.ok(seen.length < 25_000, `${seen.length} notifications relayed`);
});

Deno.test("hostile flow: a remote answer stream cut or ended mid-call fails the call at once, saying the connection dropped", async () => {
  await using dropper = startDropper();
  await using tokens = await tempWorkspace();
  const [web] = parseConfig(
    JSON.stringify({ mcpServers: { web: { url: dropper.url, type: "http", timeout_s: 30 } } }),
    "gateway.jsonc",
    {},
  ).servers;
  await using gateway = await front([web], { remote: { tokenDir: tokens.path } });
  assert.equal(textOf(await gateway.call("web__ok")), "ok done");
  // drop_resumable: the SDK tries to resume the stream and the server refuses its GET (405).
  for (const tool of ["drop", "hang_up", "drop_resumable"]) {
    const result = await gateway.call(`web__${tool}`);
    assert.equal(result.isError, true, tool);
    assert.match(
      textOf(result),
      new RegExp(
        `^Error \\[unavailable\\]: Cannot call "${tool}" on MCP server "web": the connection dropped`,
      ),
    );
  }
  assert.equal(textOf(await gateway.call("web__ok")), "ok done", "the next call goes through");
});
