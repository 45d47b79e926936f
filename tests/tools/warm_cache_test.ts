import assert from "node:assert/strict";
import { Client, StdioClientTransport } from "../../lib/mcp/sdk_client.ts";
import { listServers, runArgs } from "../../tools/catalog.ts";
import { warmCache } from "../../tools/warm_cache.ts";

const hello = listServers().find((server) => server.name === "hello")!;

/** `deno run --cached-only …/hello/main.ts`: how the installed wrappers start a server. */
const offlineArgs = () => ["run", "--cached-only", ...runArgs(hello).slice(1)];

// Fetches the hello server's packages from the npm registry into an empty cache (~100 small packages).
Deno.test("doctor's cache warm-up lets a fresh Deno cache start a server with --cached-only", async () => {
  const denoDir = await Deno.makeTempDir({ prefix: "continue-mcp-deno-dir-" });
  try {
    const env = { ...Deno.env.toObject(), DENO_DIR: denoDir };
    const cold = await new Deno.Command(Deno.execPath(), {
      args: offlineArgs(),
      env,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.equal(cold.success, false, "an empty cache cannot start a server offline");
    assert.match(new TextDecoder().decode(cold.stderr), /--cached-only/);

    assert.deepEqual(await warmCache([hello], { env }), { ok: true });

    const transport = new StdioClientTransport({ command: Deno.execPath(), args: offlineArgs(), env });
    const client = new Client({ name: "warm-cache-test", version: "0.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((tool) => tool.name === "hello_ping"));
    } finally {
      await client.close();
    }
  } finally {
    await Deno.remove(denoDir, { recursive: true });
  }
});
