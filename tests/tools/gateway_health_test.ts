import assert from "node:assert/strict";
import { join } from "node:path";
import { gatewayHealth } from "../../tools/gateway_health.ts";
import { tempWorkspace } from "../_support/workspace.ts";

Deno.test("doctor's gateway section: each downstream's state, shared connections, and the down ones as problems", async () => {
  await using workspace = await tempWorkspace({
    "gw.jsonc": `{
      // two entries, one connection; one server that cannot start
      "mcpServers": {
        "a": { "builtin": "hello" },
        "b": { "builtin": "hello" },
        "broken": { "command": "no-such-program-continue-mcp" },
      },
    }`,
  });
  const health = await gatewayHealth({ MCP_GATEWAY_CONFIG: join(workspace.path, "gw.jsonc") });
  const byName = new Map(health.rows.slice(1).map((row) => [row[0], row]));
  assert.equal(byName.get("a")?.[1], "up");
  assert.equal(byName.get("a")?.[2], "3");
  assert.match(byName.get("b")?.[3] ?? "", /shares its connection with a/);
  assert.equal(byName.get("broken")?.[1], "down");
  assert.equal(health.problems.length, 1);
  assert.match(health.problems[0], /^gateway downstream broken: /);
});

Deno.test("doctor's gateway section without a config says how to give one", async () => {
  const health = await gatewayHealth({});
  assert.match(health.heading, /no config \(set MCP_GATEWAY_CONFIG/);
  assert.deepEqual(health.problems, []);
});
