import assert from "node:assert/strict";
import { connect, textOf } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { BAD, SQLFLUFF, sqlServer } from "./support.ts";

const ignore = SQLFLUFF === null;
/** Keyword capitalisation: L010 on sqlfluff 1.x, CP01 from 2.0. */
const KEYWORDS = "(L010|CP01)";

Deno.test({
  name: "sqlfluff: lint finds the known violations at their positions, sorted, with a count summary",
  ignore,
  async fn() {
    await using ws = await tempWorkspace();
    await using c = await connect(sqlServer(ws.path, { kind: "sqlfluff" }));
    const result = await c.call("sql_lint", { sql: "SELECT a FROM t\n" });
    assert.equal(result.isError, undefined);
    assert.match(
      textOf(result),
      new RegExp(
        `^2 violations \\(${KEYWORDS} ×2\\)\\n1:1 ${KEYWORDS} Keywords must be lower case\\.\\n` +
          `1:10 ${KEYWORDS} Keywords must be lower case\\.\\n\\(sqlfluff [\\d.]+, config: house style, dialect snowflake\\)$`,
      ),
    );
  },
});

Deno.test({
  name: "sqlfluff: a folder lints as one batch; clean files count, parse errors show as PRS",
  ignore,
  async fn() {
    await using ws = await tempWorkspace({
      "models/a.sql": "select 1\n",
      "models/sub/b.sql": BAD,
      "models/notes.txt": "SELECT",
      "models/.hidden/c.sql": "SELECT 1",
    });
    await using c = await connect(sqlServer(ws.path, { kind: "sqlfluff" }));
    const text = await c.text("sql_lint", { path: "models" });
    assert.match(text, /^\d+ violations? in 1 of 2 files \(.*PRS.*\)\n/);
    assert.match(
      text,
      /\nmodels\/sub\/b\.sql:1:18 PRS Line 1, Position 18: Found unparsable section: 'where'\n/,
    );
    assert.doesNotMatch(text, /models\/a\.sql|notes|hidden/);
  },
});

Deno.test({
  name: "sqlfluff: clean SQL is 'clean', not an error; rules narrow the check (modern codes on 1.x too)",
  ignore,
  async fn() {
    await using ws = await tempWorkspace();
    await using c = await connect(sqlServer(ws.path, { kind: "sqlfluff" }));
    const clean = await c.call("sql_lint", { sql: "select a FROM t\n", rules: ["CP02"] });
    assert.equal(clean.isError, undefined);
    assert.match(textOf(clean), /^clean: no violations \(sqlfluff /);
    const unknown = await c.call("sql_lint", { sql: "select 1\n", rules: ["XX99"] });
    assert.equal(unknown.isError, true);
    assert.match(textOf(unknown), /^Error \[invalid_argument\]: Cannot lint SQL: .*XX99/);
  },
});

Deno.test({
  name: "sqlfluff: an unknown dialect is invalid_argument listing the valid ones",
  ignore,
  async fn() {
    await using ws = await tempWorkspace();
    await using c = await connect(sqlServer(ws.path, { kind: "sqlfluff" }));
    const result = await c.call("sql_lint", { sql: "select 1\n", dialect: "nosuch" });
    assert.equal(result.isError, true);
    assert.match(
      textOf(result),
      /^Error \[invalid_argument\]: Cannot lint SQL: unknown dialect "nosuch"; use one of: ansi, .*materialize, .*snowflake/,
    );
  },
});
