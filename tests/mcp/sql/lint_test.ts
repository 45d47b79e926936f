import assert from "node:assert/strict";
import { connect, textOf } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { BACKENDS, BAD, sqlServer } from "./support.ts";

for (const { name, kind, found, parseError, code } of BACKENDS) {
  const ignore = found === null;

  /** Keyword capitalisation: L010 on sqlfluff 1.x, CP01 from 2.0 and on sqruff. */
  const KEYWORDS = code("CP01", "L010");

  Deno.test({
    name: `${name}: lint finds the known violations at their positions, sorted, with a count summary`,
    ignore,
    async fn() {
      await using ws = await tempWorkspace();
      await using c = await connect(sqlServer(ws.path, { backend: found }));
      const result = await c.call("sql_lint", { sql: "SELECT a FROM t\n" });
      assert.equal(result.isError, undefined);
      assert.match(
        textOf(result),
        new RegExp(
          `^2 violations \\(${KEYWORDS} ×2\\)\\n1:1 ${KEYWORDS} Keywords must be (consistently )?lower case\\.\\n` +
            `1:10 ${KEYWORDS} Keywords must be (consistently )?lower case\\.\\n\\(${kind} [\\d.]+, config: house style, dialect snowflake\\)$`,
        ),
      );
    },
  });

  Deno.test({
    name: `${name}: a folder lints as one batch; big files too; clean files count, parse errors show as PRS`,
    ignore,
    async fn() {
      await using ws = await tempWorkspace({
        "models/a.sql": "select 1\n",
        // Over the backends' default 20,000-byte skip limit: must be linted, not silently skipped.
        "models/big.sql": `SELECT 1\n${`-- ${"x".repeat(90)}\n`.repeat(300)}`,
        "models/sub/b.sql": BAD,
        "models/notes.txt": "SELECT",
        "models/.hidden/c.sql": "SELECT 1",
      });
      await using c = await connect(sqlServer(ws.path, { backend: found }));
      const text = await c.text("sql_lint", { path: "models" });
      assert.match(text, /^\d+ violations? in 2 of 3 files \(.*PRS.*\)\n/);
      assert.match(text, new RegExp(`\\nmodels/big\\.sql:1:1 ${KEYWORDS} `));
      assert.match(
        text,
        new RegExp(`\\nmodels/sub/b\\.sql:${parseError}\\n`),
      );
      assert.doesNotMatch(text, /models\/a\.sql|notes|hidden/);
    },
  });

  Deno.test({
    name: `${name}: clean SQL is 'clean', not an error; rules narrow the check (modern codes on 1.x too)`,
    ignore,
    async fn() {
      await using ws = await tempWorkspace();
      await using c = await connect(sqlServer(ws.path, { backend: found }));
      const clean = await c.call("sql_lint", { sql: "select a FROM t\n", rules: ["CP02, LT01"] });
      assert.equal(clean.isError, undefined);
      assert.match(textOf(clean), new RegExp(`^clean: no violations \\(${kind} `));
      const unknown = await c.call("sql_lint", { sql: "select 1\n", rules: ["XX99"] });
      assert.equal(unknown.isError, true);
      assert.match(textOf(unknown), /^Error \[invalid_argument\]: Cannot lint SQL: .*XX99/);
    },
  });

  Deno.test({
    name: `${name}: an unknown dialect is invalid_argument listing the valid ones`,
    ignore,
    async fn() {
      await using ws = await tempWorkspace();
      await using c = await connect(sqlServer(ws.path, { backend: found }));
      const result = await c.call("sql_lint", { sql: "select 1\n", dialect: "nosuch" });
      assert.equal(result.isError, true);
      assert.match(
        textOf(result),
        /^Error \[invalid_argument\]: Cannot lint SQL: unknown dialect "nosuch"; use one of: ansi, .*snowflake/,
      );
    },
  });
}
