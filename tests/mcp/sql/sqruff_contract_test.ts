import assert from "node:assert/strict";
import { fileURLToPath as fromFileUrl } from "node:url";
import { connect, textOf } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { isWindows } from "../../../lib/platform/mod.ts";
import { sqlServer } from "./support.ts";

const FAKE = fromFileUrl(new URL("./fake_sqruff.ts", import.meta.url));

/** A workspace, a `sqruff` on a private PATH that runs the fake, and the log of its calls. */
async function fakeSqruff(files: Record<string, string> = {}) {
  const ws = await tempWorkspace({ "bin/": "", "w/": "", ...files });
  const script = `#!/bin/sh\nexec "${Deno.execPath()}" run --quiet --no-config --allow-all "${FAKE}" "$@"\n`;
  await Deno.writeTextFile(ws.join("bin", "sqruff"), script, { mode: 0o755 });
  const logFile = ws.join("calls.jsonl");
  // The config lives in the run's temp folder: shown as `<tmp>/.sqruff`.
  const calls = async () =>
    (await Deno.readTextFile(logFile).catch(() => "")).split("\n").filter(Boolean).map((line) => {
      const call = JSON.parse(line) as { argv: string[]; config: string | null };
      return { ...call, argv: call.argv.map((a) => a.replace(/^.*[\\/]sql-mcp-[^\\/]+[\\/]/, "<tmp>/")) };
    });
  const server = sqlServer(ws.join("w"), {
    env: { PATH: ws.join("bin"), FAKE_SQRUFF_LOG: logFile, SQL_MCP_BACKEND: "" },
  });
  return { ws, server, calls };
}

Deno.test({
  name:
    "sqruff contract: format runs `fix` with the house config narrowed to the format rules, from a temp cwd",
  ignore: isWindows,
  async fn() {
    const { ws, server, calls } = await fakeSqruff();
    await using _ws = ws;
    await using c = await connect(server);
    const text = await c.text("sql_format", { sql: "SELECT a FROM t\n" });
    assert.equal(text, "select a from t\n\n-- sqruff 0.40.0, config: house style, dialect snowflake");
    const [version, help, fix, ...more] = await calls();
    assert.deepEqual(version.argv, ["--version"]);
    assert.deepEqual(help.argv, ["--help"], "discovery asks which isolation flags this build has");
    assert.deepEqual(fix.argv, [
      "--config",
      "<tmp>/.sqruff",
      "--library-path",
      "none",
      "--parsing-errors",
      "fix",
      "1.sql",
    ]);
    assert.match(fix.config!, /^\[sqruff\]\ndialect = snowflake\n/m);
    assert.match(fix.config!, /^rules = capitalisation,layout,AM02,CV01,CV02,CV03,CV05$/m);
    assert.match(fix.config!, /^\[sqruff:layout:type:comma\]\nline_position = leading$/m);
    assert.equal(fix.config!.match(/^rules = /gm)!.length, 1, "one rules key, replaced in place");
    assert.deepEqual(more, [], "a clean fix (exit 0) needs no lint run");
  },
});

Deno.test({
  name:
    "sqruff contract: lint reads the JSON keyed by path; parse errors (code null) are PRS; rules go in the config",
  ignore: isWindows,
  async fn() {
    const { ws, server, calls } = await fakeSqruff({
      "w/a.sql": "SELECT 1\n",
      "w/b.sql": "select a, from t where\n",
    });
    await using _ws = ws;
    await using c = await connect(server);
    const text = await c.text("sql_lint", { paths: ["a.sql", "b.sql"], rules: ["CP01"] });
    assert.equal(
      text,
      "2 violations in 2 of 2 files (CP01, PRS)\na.sql:1:1 CP01 Keywords must be consistently lower case.\n" +
        "b.sql:1:18 PRS Unparsable section\n(sqruff 0.40.0, config: house style, dialect snowflake)",
    );
    const lint = (await calls())[2];
    assert.deepEqual(lint.argv, [
      "--config",
      "<tmp>/.sqruff",
      "--library-path",
      "none",
      "--parsing-errors",
      "lint",
      "-f",
      "json",
      "1.sql",
      "2.sql",
    ]);
    assert.match(lint.config!, /^rules = CP01$/m);
  },
});

Deno.test({
  name: "sqruff contract: unfixable files stay unchanged with their parse errors; a workspace .sqruff wins",
  ignore: isWindows,
  async fn() {
    const { ws, server, calls } = await fakeSqruff({
      "w/.sqruff": "[sqruff]\ndialect = bigquery\n",
      "w/ok.sql": "SELECT 1\n",
      "w/bad.sql": "SELECT a, from t where\n",
    });
    await using _ws = ws;
    await using c = await connect(server);
    const text = await c.text("sql_format", { paths: ["ok.sql", "bad.sql"], write: true });
    assert.equal(
      text,
      "1 of 2 files rewritten\nok.sql: formatted, +1 -1 lines\nbad.sql: not formatted, it does not parse\n" +
        "-- the SQL does not parse, so it was left unchanged:\n--   1:18 PRS Unparsable section\n" +
        "(sqruff 0.40.0, config: .sqruff (workspace), dialect bigquery)",
    );
    assert.equal(await Deno.readTextFile(ws.join("w/ok.sql")), "select 1\n");
    assert.equal(await Deno.readTextFile(ws.join("w/bad.sql")), "SELECT a, from t where\n");
    const all = await calls();
    assert.equal(all.length, 4, "--version, --help, then one fix and one lint for both files together");
    const [, , fix, lint] = all;
    assert.equal(fix.argv[5], "fix");
    assert.equal(lint.argv[5], "lint", "fix exit 1 is followed by a lint for what is left");
    assert.match(
      fix.config!,
      /^\[sqruff\]\nrules = capitalisation,[^\n]+\nlarge_file_skip_byte_limit = 2000000\ndialect = bigquery\ntemplater = raw\n$/,
    );
  },
});

Deno.test({
  name: "sqruff contract: a --dialect sqruff rejects is invalid_argument with the dialects it lists",
  ignore: isWindows,
  async fn() {
    const { ws, server } = await fakeSqruff();
    await using _ws = ws;
    await using c = await connect(server);
    const result = await c.call("sql_lint", { sql: "select 1\n", dialect: " NoSuch" });
    assert.equal(
      textOf(result),
      'Error [invalid_argument]: Cannot lint SQL: unknown dialect "nosuch"; use one of: ansi, bigquery, postgres, snowflake',
    );
  },
});
