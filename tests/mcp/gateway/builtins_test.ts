import assert from "node:assert/strict";
import { bootBuiltin, BUILTIN_NAMES } from "../../../mcp/gateway/builtins.ts";
import { createLinkedPair } from "../../../lib/mcp/linked_transport.ts";
import { Client } from "../../../lib/mcp/sdk_client.ts";
import { listServers } from "../../../tools/catalog.ts";
import { loadServerSdk } from "../../../lib/mcp/server.ts";

Deno.test("builtins: every server of this project can be hosted in process", () => {
  const servers = listServers().map((server) => server.name).filter((name) => name !== "gateway");
  assert.deepEqual([...BUILTIN_NAMES].sort(), servers);
});

for (const name of BUILTIN_NAMES) {
  Deno.test(`builtins: "${name}" boots in process and lists its tools`, async () => {
    const handle = await bootBuiltin(name);
    const client = new Client({ name: "builtins-test", version: "0" });
    const [clientSide, serverSide] = createLinkedPair();
    await loadServerSdk();
    await handle.server.connect(serverSide);
    await client.connect(clientSide);
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.length > 0);
      assert.ok(tools.every((tool) => tool.name.startsWith(`${name}_`)));
    } finally {
      await client.close();
      await handle.close();
    }
  });
}

Deno.test("builtins: an unknown name is refused with the list of names", async () => {
  await assert.rejects(
    bootBuiltin("toString"),
    /Cannot host "toString" in process: not a server of this project \(edit, /,
  );
});
