import assert from "node:assert/strict";
import { encode } from "gpt-tokenizer";
import { spawnStdio } from "../../_support/stdio.ts";
import { assertSnapshot } from "../../_support/snapshot.ts";
import { connect, textOf } from "../../_support/connect.ts";
import { requireRipgrep } from "../../../lib/ripgrep/locate.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { createServer } from "../../../mcp/search/server.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { searchTimeoutMs, timeoutNote } from "../../../mcp/search/timeout.ts";
import { connectSearch, GIT } from "./_connect.ts";

/** This server's share of the toolkit's tools/list budget. */
const TOKEN_BUDGET = 400;

Deno.test("tools/list matches the snapshot", async () => {
  await using c = await connectSearch(Deno.cwd());
  const { tools } = await c.client.listTools();
  await assertSnapshot(new URL("../../../mcp/search/tools.json", import.meta.url), tools);
});

Deno.test("tools/list fits the token budget; descriptions stay terse; tools are read-only", async () => {
  await using c = await connectSearch(Deno.cwd());
  const { tools } = await c.client.listTools();
  let tokens = 0;
  for (const tool of tools) {
    tokens += encode(tool.name + (tool.description ?? "") + JSON.stringify(tool.inputSchema)).length;
    assert.ok((tool.description ?? "").length <= 200, tool.name);
    for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {})) {
      const description = (property as { description?: string }).description ?? "";
      assert.ok(description.length <= 80, `${tool.name}.${name}`);
    }
    assert.equal(tool.annotations?.readOnlyHint, true);
    assert.equal(tool.annotations?.idempotentHint, true);
  }
  assert.ok(tokens <= TOKEN_BUDGET, `tools/list is ${tokens} tokens, budget ${TOKEN_BUDGET}`);
});

Deno.test("a schema violation is an invalid_argument result", async () => {
  await using c = await connectSearch(Deno.cwd());
  const result = await c.call("search_grep", { pattern: "x", mode: "everything" });
  assert.equal(result.isError, true);
  assert.match(textOf(result), /^Error \[invalid_argument\]: Cannot call search_grep: "mode"/);
  // Models often send numbers and booleans as strings: those are repaired, not refused.
  await using ws = await tempWorkspace({ ...GIT, "a.txt": "x\nx\n" });
  await using d = await connectSearch(ws.path);
  assert.equal(
    await d.text("search_grep", { pattern: "x", limit: "1", fixed: "true" }),
    "a.txt\n1:x\n\n2 matching lines in 1 file (showing 1; offset=1 for more)",
  );
});

Deno.test("SEARCH_MCP_TIMEOUT_S sets the timeout; junk falls back to 30 s", () => {
  assert.equal(searchTimeoutMs(undefined), 30_000);
  assert.equal(searchTimeoutMs("2.5"), 2_500);
  assert.equal(searchTimeoutMs("0"), 30_000);
  assert.equal(searchTimeoutMs("soon"), 30_000);
  assert.equal(timeoutNote(250, "partial"), "Stopped after 250 ms (timeout): partial");
  assert.equal(timeoutNote(30_000, "partial"), "Stopped after 30 s (timeout): partial");
});

Deno.test("stdio: a real client greps and globs over pipes", async () => {
  await using ws = await tempWorkspace({ ...GIT, "src/a.ts": "export const answer = 42;\n" });
  await using c = await spawnStdio("search", { cwd: ws.path });
  const { tools } = await c.client.listTools();
  assert.deepEqual(tools.map((t) => t.name), ["search_grep", "search_glob"]);
  const grep = await c.client.callTool({ name: "search_grep", arguments: { pattern: "answer" } });
  assert.equal(textOf(grep as never), "src/a.ts\n1:export const answer = 42;\n\n1 matching line in 1 file");
  const glob = await c.client.callTool({ name: "search_glob", arguments: { pattern: "*.ts" } });
  assert.equal(textOf(glob as never), "src/a.ts\n\n1 file, newest first");
});

Deno.test("a broken RG_PATH is an unavailable error that names it", async () => {
  await using ws = await tempWorkspace({ ...GIT, "a.txt": "x\n" });
  await using c = await connect(createServer({
    workspace: new Workspace({ cwd: ws.path }),
    ripgrep: () => requireRipgrep({ RG_PATH: ws.join("no-rg") }),
    timeoutMs: 30_000,
  }));
  const result = await c.call("search_grep", { pattern: "x" });
  assert.deepEqual(result._meta, { code: "unavailable" });
  assert.match(
    textOf(result),
    /^Error \[unavailable\]: Cannot run ripgrep: RG_PATH ".*no-rg" does not answer/,
  );
});
