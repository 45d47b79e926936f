/** Regressions from issue 11 item 16 (sqlfluff batches, per-file errors, config errors, inline L009). */
import assert from "node:assert/strict";
import { connect, textOf } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { failureCause } from "../../../mcp/sql/failure.ts";
import { MAX_TIMEOUT_MS, scaledTimeoutMs, timeoutFromEnv } from "../../../mcp/sql/timeout.ts";
import { BACKENDS, sqlServer } from "./support.ts";

Deno.test("the timeout scales with the input unless SQL_MCP_TIMEOUT_MS fixes it", () => {
  assert.equal(timeoutFromEnv({}), undefined);
  assert.equal(timeoutFromEnv({ SQL_MCP_TIMEOUT_MS: "90000" }), 90_000);
  assert.equal(scaledTimeoutMs("lint", 556, 1), 31_186);
  // 200 small models of ~556 bytes: far more than the old flat 30 s, but capped.
  assert.equal(scaledTimeoutMs("lint", 200 * 556, 200), 267_188);
  assert.equal(scaledTimeoutMs("format", 200 * 556, 200), MAX_TIMEOUT_MS);
  // sqruff is ~40× faster: 200 small models fit in an MCP client's usual 60 s request timeout.
  assert.equal(scaledTimeoutMs("lint", 200 * 111, 200, "sqruff"), 19_420);
  assert.equal(scaledTimeoutMs("format", 200 * 111, 200, "sqruff"), 35_680);
  assert.equal(scaledTimeoutMs("format", 1_000_000, 1, "sqruff"), MAX_TIMEOUT_MS);
});

Deno.test("failureCause: a Python traceback is reduced to its exception line; other text stays", () => {
  const traceback = [
    "Traceback (most recent call last):",
    '  File "/usr/bin/sqlfluff", line 33, in <module>',
    "    sys.exit(load_entry_point('sqlfluff==1.4.5', 'console_scripts', 'sqlfluff')())",
    "             ^^^^^^^^^^^^^^^^",
    '  File "/usr/lib/python3/dist-packages/sqlfluff/core/dialects/__init__.py", line 61, in load_raw_dialect',
    "    module_name, name = _dialect_lookup[label]",
    "KeyError: 'nosuchdialect'",
    "",
  ].join("\n");
  assert.equal(failureCause(traceback), "KeyError: 'nosuchdialect'");
  assert.equal(failureCause("Error loading config: no such file\n"), "Error loading config: no such file");
});

/** The speed hint of a timeout, per backend. */
const SPEED = {
  sqlfluff: "sqlfluff needs about 2 s per KB to lint, 5 s to format; ",
  sqruff: "",
};

for (const { name, kind, found, code } of BACKENDS) {
  const ignore = found === null;
  const keywords = code("CP01", "L010");

  Deno.test({
    name: `${name}: 30 files in several chunks come back file by file`,
    ignore,
    async fn() {
      const files: Record<string, string> = {};
      for (let i = 0; i < 30; i++) files[`m/q${String(i).padStart(2, "0")}.sql`] = `select c${i} FROM t\n`;
      await using ws = await tempWorkspace(files);
      await using c = await connect(sqlServer(ws.path, { backend: found, concurrency: 2 }));
      const text = await c.text("sql_lint", { path: "m" });
      assert.match(text, new RegExp(`^30 violations in 30 of 30 files \\(${keywords} ×30\\)\\n`));
      for (let i = 0; i < 30; i++) {
        const column = 10 + String(i).length;
        assert.match(text, new RegExp(`\\nm/q${String(i).padStart(2, "0")}\\.sql:1:${column} ${keywords} `));
      }
    },
  });

  Deno.test({
    name: `${name}: a batch with nothing finished in time is a timeout naming how many files and what to do`,
    ignore,
    async fn() {
      const files: Record<string, string> = {};
      for (let i = 0; i < 30; i++) files[`m/q${i}.sql`] = "select 1\n";
      await using ws = await tempWorkspace(files);
      // No backend starts within 1 ms (sqruff's PyPI build runs Python first): every chunk runs out.
      await using c = await connect(sqlServer(ws.path, { backend: found, timeoutMs: 1 }));
      const result = await c.call("sql_lint", { path: "m" });
      assert.equal(result.isError, true);
      assert.match(
        textOf(result),
        new RegExp(
          "^Error \\[timeout\\]: Cannot lint SQL: none of the 30 files \\(270B\\) finished within 0\\.001 s and the " +
            `backend was stopped; ${
              SPEED[kind]
            }pass fewer files or set SQL_MCP_TIMEOUT_MS \\(milliseconds\\)$`,
        ),
      );
    },
  });

  Deno.test({
    name: `${name}: a file that is not UTF-8 is reported on its own line; the rest of the folder still runs`,
    ignore,
    async fn() {
      await using ws = await tempWorkspace({ "m/a.sql": "SELECT 1\n", "m/c.sql": "select 2\n" });
      await Deno.writeFile(ws.join("m/b.sql"), new Uint8Array([0xff, 0xfe, 0x73, 0x0a]));
      await using c = await connect(sqlServer(ws.path, { backend: found }));
      const lint = await c.text("sql_lint", { path: "m" });
      assert.match(
        lint,
        new RegExp(
          `^1 violation in 1 of 2 files \\(${keywords}\\); 1 of 3 not checked\\nm/a\\.sql:1:1 ${keywords} `,
        ),
      );
      assert.match(lint, new RegExp(`\\nm/b\\.sql: not checked, not UTF-8 text\\n\\(${kind} `));
      const written = await c.text("sql_format", { path: "m", write: true });
      assert.match(written, /^1 of 3 files rewritten\n/);
      assert.match(written, /\nm\/b\.sql: not formatted, not UTF-8 text\n/);
      assert.deepEqual(await Deno.readFile(ws.join("m/b.sql")), new Uint8Array([0xff, 0xfe, 0x73, 0x0a]));
      // Alone, the file is still an error: there is nothing else to report.
      const alone = await c.call("sql_lint", { path: "m/b.sql" });
      assert.match(
        textOf(alone),
        /^Error \[invalid_argument\]: Cannot lint SQL: "m\/b\.sql" is not UTF-8 text$/,
      );
    },
  });

  Deno.test({
    name: `${name}: a broken workspace config shows the real cause, not the top of a traceback or a panic`,
    ignore,
    async fn() {
      await using ws = await tempWorkspace({ ".sqlfluff": "[sqlfluff]\ndialect = nosuchdialect\n" });
      await using c = await connect(sqlServer(ws.path, { backend: found }));
      const result = await c.call("sql_lint", { sql: "select 1\n" });
      assert.equal(result.isError, true);
      // sqruff 0.44 panics ("VariantNotFound"), sqlfluff 1.4.5 raises KeyError, 4.x names the dialect.
      assert.match(
        textOf(result),
        /^Error \[invalid_argument\]: Cannot lint SQL: unknown dialect in \.sqlfluff \(workspace\); use one of: ansi, .*snowflake/,
      );
    },
  });

  Deno.test({
    name: `${name}: inline SQL without a final newline gets no 'file must end with a newline' (L009)`,
    ignore,
    async fn() {
      await using ws = await tempWorkspace({ "q.sql": "select 1" });
      await using c = await connect(sqlServer(ws.path, { backend: found }));
      assert.match(
        await c.text("sql_lint", { sql: "select 1" }),
        new RegExp(`^clean: no violations \\(${kind} `),
      );
      assert.match(
        await c.text("sql_format", { sql: "select 1" }),
        new RegExp(`^select 1\\n\\n-- ${kind} [\\d.]+, config: house`),
      );
      // A file is a file: there the rule stands.
      assert.match(
        await c.text("sql_lint", { path: "q.sql" }),
        new RegExp(`^1 violation in 1 file \\(${code("LT12", "L009")}\\)`),
      );
    },
  });
}
