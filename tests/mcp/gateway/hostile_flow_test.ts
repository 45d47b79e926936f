/**
 * Downstream servers that jam the gateway's flow: one that never answers initialize while the config is
 * edited, a question orphaned by a cancelled call, a flood of progress, a remote stream cut mid-call.
 */
import assert from "node:assert/strict";
import { boot } from "../../../mcp/gateway/boot.ts";
import { connect } from "../../_support/connect.ts";
import { waitFor } from "../../_support/poll.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { scriptServer } from "./_config.ts";

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
