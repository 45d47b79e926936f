import assert from "node:assert/strict";
import { encode } from "gpt-tokenizer";
import { connect, textOf } from "../../_support/connect.ts";
import { spawnStdio } from "../../_support/stdio.ts";
import { assertSnapshot } from "../../_support/snapshot.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { backendEnv, BACKENDS, sqlServer } from "./support.ts";

/** This server's share of the 2,500-token tools/list budget of all servers. */
const TOKEN_BUDGET = 260;

Deno.test("tools/list matches the snapshot and fits the token budget", async () => {
  await using c = await connect(sqlServer(Deno.cwd()));
  const { tools } = await c.client.listTools();
  await assertSnapshot(new URL("../../../mcp/sql/tools.json", import.meta.url), tools);
  const tokens = tools.reduce(
    (sum, t) => sum + encode(t.name + (t.description ?? "") + JSON.stringify(t.inputSchema)).length,
    0,
  );
  assert.ok(tokens <= TOKEN_BUDGET, `tools/list takes ${tokens} tokens, over ${TOKEN_BUDGET}`);
  for (const tool of tools) {
    assert.ok(tool.description!.length <= 200, tool.name);
    for (const property of Object.values(tool.inputSchema.properties ?? {})) {
      assert.ok(((property as { description?: string }).description ?? "").length <= 80, tool.name);
    }
  }
});

Deno.test("bad arguments are invalid_argument before any backend runs", async () => {
  await using ws = await tempWorkspace({ "a.sql": "select 1\n" });
  // No backend on PATH: each of these must fail on its arguments, not on the missing backend.
  await using c = await connect(sqlServer(ws.path, { env: { PATH: ws.path, SQL_MCP_BACKEND: "" } }));
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ["sql_lint", {}, /Cannot lint SQL: pass sql, or path or paths$/],
    ["sql_lint", { sql: "select 1", path: "a.sql" }, /pass either sql or path\/paths, not both$/],
    [
      "sql_format",
      { sql: "select 1", write: true },
      /Cannot format SQL: write needs path or paths, not sql$/,
    ],
    [
      "sql_lint",
      { sql: "select 1", dialect: "--help" },
      /"--help" is not a dialect name; use e\.g\. snowflake/,
    ],
    ["sql_lint", { sql: "select 1", rules: ["CP01;rm"] }, /"CP01;rm" is not a rule code or name/],
  ];
  for (const [tool, args, pattern] of cases) {
    const result = await c.call(tool, args);
    assert.equal(result.isError, true, JSON.stringify(args));
    assert.match(textOf(result), /^Error \[invalid_argument\]: /);
    assert.match(textOf(result), pattern);
  }
  const outside = await c.call("sql_lint", { path: "../../etc/passwd" });
  assert.match(textOf(outside), /^Error \[outside_workspace\]: /);
  const missing = await c.call("sql_lint", { path: "nope.sql" });
  assert.match(textOf(missing), /^Error \[not_found\]: Cannot lint SQL: cannot read "nope\.sql"/);
  const huge = await c.call("sql_format", { sql: "x".repeat(1_000_001) });
  assert.match(textOf(huge), /^Error \[too_large\]: Cannot format SQL: the sql argument has 1,000,001 bytes/);
});

Deno.test("no backend on PATH: unavailable, naming both and how to install them", async () => {
  await using ws = await tempWorkspace();
  await using c = await connect(sqlServer(ws.path, { env: { PATH: ws.path, SQL_MCP_BACKEND: "" } }));
  const result = await c.call("sql_format", { sql: "select 1" });
  assert.equal(result.isError, true);
  assert.deepEqual(result._meta, { code: "unavailable" });
  assert.match(
    textOf(result),
    /^Error \[unavailable\]: Cannot format SQL: no SQL backend: neither sqruff nor sqlfluff found on PATH; install sqruff \(`pip install sqruff`.*sqlfluff \(`pip install sqlfluff`.*apt install sqlfluff/,
  );
});

for (const { name, kind, found, code } of BACKENDS) {
  Deno.test({
    name: `${name}: a backend run past the timeout is killed and reported as timeout`,
    ignore: found === null,
    async fn() {
      await using ws = await tempWorkspace();
      // No backend starts within 1 ms (sqruff's PyPI build runs Python first). The sanitizers fail the test
      // if the killed child were left running or unawaited.
      await using c = await connect(sqlServer(ws.path, { backend: found, timeoutMs: 1 }));
      const result = await c.call("sql_lint", { sql: "select 1\n" });
      assert.equal(result.isError, true);
      const speed = kind === "sqlfluff" ? "sqlfluff needs about 2 s per KB to lint, 5 s to format; " : "";
      assert.equal(
        textOf(result),
        `Error [timeout]: Cannot lint SQL: ${kind} did not finish the SQL (9B) within 0.001 s and was stopped; ${speed}split the SQL into smaller pieces or set SQL_MCP_TIMEOUT_MS (milliseconds)`,
      );
    },
  });

  Deno.test({
    name: `${name}: stdio: a real client lists the tools and lints over pipes`,
    ignore: found === null,
    async fn() {
      await using ws = await tempWorkspace({ "q.sql": "SELECT 1\n" });
      await using c = await spawnStdio("sql", { cwd: ws.path, env: backendEnv(found!) });
      const { tools } = await c.client.listTools();
      assert.deepEqual(tools.map((t) => t.name), ["sql_format", "sql_lint"]);
      const result = await c.client.callTool({ name: "sql_lint", arguments: { path: "q.sql" } });
      const keywords = code("CP01", "L010");
      assert.match(
        textOf(result as never),
        new RegExp(
          `^1 violation in 1 file \\(${keywords}\\)\\nq\\.sql:1:1 ${keywords} .*\\n\\(${kind} ${
            found!.version
          },`,
        ),
      );
    },
  });
}
