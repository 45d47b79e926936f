/** sql_format write: true follows the toolkit's one set of write rules: read-only refused, hard links kept. */
import assert from "node:assert/strict";
import { fileURLToPath as fromFileUrl } from "node:url";
import { textOf } from "../../_support/connect.ts";
import { spawnStdio } from "../../_support/stdio.ts";
import { type TempWorkspace, tempWorkspace } from "../../_support/workspace.ts";
import { isWindows } from "../../../lib/platform/mod.ts";
import type { CallToolResult } from "../../../lib/mcp/sdk.ts";

const FAKE = fromFileUrl(new URL("./fake_sqruff.ts", import.meta.url));

async function sqlServer(ws: TempWorkspace) {
  const script = `#!/bin/sh\nexec "${Deno.execPath()}" run --quiet --no-config --allow-all "${FAKE}" "$@"\n`;
  await Deno.writeTextFile(ws.join("bin", "sqruff"), script, { mode: 0o755 });
  return await spawnStdio("sql", { cwd: ws.join("w"), env: { PATH: ws.join("bin"), SQL_MCP_BACKEND: "" } });
}

async function format(server: Awaited<ReturnType<typeof sqlServer>>, path: string): Promise<string> {
  const result = await server.client.callTool({
    name: "sql_format",
    arguments: { path, write: true },
  }) as CallToolResult;
  assert.equal(result.isError, undefined, textOf(result));
  return textOf(result);
}

Deno.test({
  name: "stdio: sql_format write: true refuses a read-only file (permission_denied) and leaves it as it was",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace({ "bin/": "", "w/q.sql": "SELECT a FROM t;\n" });
    await Deno.chmod(ws.join("w", "q.sql"), 0o444);
    await using sql = await sqlServer(ws);
    const text = await format(sql, "q.sql");
    assert.match(text, /^0 of 1 file rewritten/);
    assert.match(text, /not written \(permission_denied: .*read-only \(mode 444\)/);
    assert.equal(await Deno.readTextFile(ws.join("w", "q.sql")), "SELECT a FROM t;\n");
    assert.equal((await Deno.stat(ws.join("w", "q.sql"))).mode! & 0o777, 0o444);
  },
});

Deno.test({
  name: "stdio: sql_format write: true keeps a hard link: both names get the formatted SQL",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace({ "bin/": "", "w/q.sql": "SELECT a FROM t;\n" });
    await Deno.link(ws.join("w", "q.sql"), ws.join("w", "twin.sql"));
    await using sql = await sqlServer(ws);
    assert.match(await format(sql, "q.sql"), /^1 of 1 file rewritten/);
    const formatted = await Deno.readTextFile(ws.join("w", "q.sql"));
    assert.notEqual(formatted, "SELECT a FROM t;\n");
    assert.equal((await Deno.stat(ws.join("w", "q.sql"))).nlink, 2);
    assert.equal(await Deno.readTextFile(ws.join("w", "twin.sql")), formatted);
  },
});

Deno.test({
  name:
    "stdio: sql_format write: true over a folder holding two hard-link names of one file writes it once " +
    "and reports the second name as the same file, not a conflict",
  ignore: isWindows,
  async fn() {
    await using ws = await tempWorkspace({ "bin/": "", "w/models/a.sql": "SELECT A,B FROM T WHERE X=1\n" });
    await Deno.link(ws.join("w", "models", "a.sql"), ws.join("w", "models", "b.sql"));
    await using sql = await sqlServer(ws);
    const text = await format(sql, "models");
    assert.match(text, /^1 of 2 files rewritten\n/);
    assert.match(text, /^models\/a\.sql: formatted, \+1 -1 lines$/m);
    assert.match(text, /^models\/b\.sql: same file as models\/a\.sql \(a hard link\)$/m);
    assert.doesNotMatch(text, /conflict|not written/);
    assert.equal(await Deno.readTextFile(ws.join("w", "models", "b.sql")), "select A,B from T WHERE X=1\n");
    assert.equal((await Deno.stat(ws.join("w", "models", "a.sql"))).nlink, 2);
  },
});
