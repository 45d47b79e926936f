import assert from "node:assert/strict";
import { encode } from "gpt-tokenizer";
import { spawnStdio } from "../../_support/stdio.ts";
import { assertSnapshot } from "../../_support/snapshot.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { fsClient } from "./_fixture.ts";

/** The fs server's share of the toolkit's tools/list budget (issue 5). */
const TOKEN_BUDGET = 340;

Deno.test("tools/list matches the snapshot", async () => {
  await using c = await fsClient(Deno.cwd());
  const { tools } = await c.client.listTools();
  await assertSnapshot(new URL("../../../mcp/fs/tools.json", import.meta.url), tools);
});

Deno.test("tools/list fits the fs server's token budget, every tool annotated read-only", async () => {
  await using c = await fsClient(Deno.cwd());
  const { tools } = await c.client.listTools();
  const tokens = tools.reduce(
    (sum, tool) =>
      sum + encode(tool.name + (tool.description ?? "") + JSON.stringify(tool.inputSchema)).length,
    0,
  );
  assert.ok(tokens <= TOKEN_BUDGET, `tools/list costs ${tokens} tokens, over ${TOKEN_BUDGET}`);
  for (const tool of tools) {
    assert.ok((tool.description ?? "").length <= 200, tool.name);
    assert.deepEqual(tool.annotations, {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {})) {
      const description = (property as { description?: string }).description ?? "";
      assert.ok(description.length <= 80, `${tool.name}.${name}`);
    }
  }
});

Deno.test("stdio: fs-mcp reads, lists and stats over real pipes with its declared permissions", async () => {
  await using ws = await tempWorkspace({
    ".git/HEAD": "",
    ".gitignore": "out/\n",
    "a.txt": "x\ny\n",
    "out/z": "",
  });
  await using c = await spawnStdio("fs", { cwd: ws.path });
  const { tools } = await c.client.listTools();
  assert.deepEqual(tools.map((t) => t.name), ["fs_read", "fs_list", "fs_stat"]);
  const read = await c.client.callTool({ name: "fs_read", arguments: { path: "a.txt" } });
  assert.match(
    (read.content as { text: string }[])[0].text,
    /^a\.txt · 4B · 2 lines · LF · sha256 [0-9a-f]{64}\n {5}1\tx\n/,
  );
  const list = await c.client.callTool({ name: "fs_list", arguments: {} });
  assert.equal(
    (list.content as { text: string }[])[0].text,
    "./\n  a.txt  4B\n[0 folders and 1 file shown of 1 file in all]",
  );
  const stat = await c.client.callTool({ name: "fs_stat", arguments: { path: "a.txt" } });
  assert.equal((stat.structuredContent as { lines: number }).lines, 2);
  const missing = await c.client.callTool({ name: "fs_read", arguments: { path: "b.txt" } });
  assert.match((missing.content as { text: string }[])[0].text, /did you mean "a\.txt"\?/);
});
