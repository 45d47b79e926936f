import assert from "node:assert/strict";
import { parseLintJson, sortViolations } from "../../../mcp/sql/parse.ts";
import { parseDialects } from "../../../mcp/sql/failure.ts";
import { SQRUFF } from "./support.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

// Shaped exactly as sqruff 0.40 prints `lint -f json` (formatters/json_types.rs, tests/json/*.stdout):
// an object keyed by path, LSP-like diagnostics with 1-based positions, `code: null` for parse errors.
const SQRUFF_JSON = JSON.stringify({
  "<string>": [
    {
      range: { start: { line: 1, character: 9 }, end: { line: 1, character: 9 } },
      message: "Unexpected whitespace before comma.",
      severity: "Warning",
      source: "sqruff",
      code: "LT01",
    },
  ],
  "b.sql": [
    {
      range: { start: { line: 1, character: 18 }, end: { line: 1, character: 18 } },
      message: "Unparsable section",
      severity: "Warning",
      source: "sqruff",
      code: null,
    },
    {
      range: { start: { line: 1, character: 1 }, end: { line: 1, character: 1 } },
      message: "Keywords must be lower case.",
      severity: "Warning",
      source: "sqruff",
      code: "CP01",
    },
  ],
  "clean.sql": [],
});

Deno.test("sqruff JSON: positions, codes, parse errors as PRS, clean files kept", () => {
  const files = parseLintJson("sqruff", SQRUFF_JSON)!;
  assert.deepEqual([...files.keys()], ["<string>", "b.sql", "clean.sql"]);
  assert.deepEqual(files.get("<string>"), [
    { line: 1, column: 9, code: "LT01", message: "Unexpected whitespace before comma." },
  ]);
  assert.deepEqual(sortViolations(files.get("b.sql")!).map((v) => `${v.line}:${v.column} ${v.code}`), [
    "1:1 CP01",
    "1:18 PRS",
  ]);
  assert.deepEqual(files.get("clean.sql"), []);
});

Deno.test("sqlfluff 1.x JSON (clean files omitted) and 3.x JSON (start_line_no, extra fields)", () => {
  const v1 = parseLintJson(
    "sqlfluff",
    '[{"filepath": "1.sql", "violations": [{"line_no": 1, "line_pos": 18, "code": "PRS", ' +
      '"description": "Line 1, Position 18: Found unparsable section: \'where\'"}]}]',
  )!;
  assert.deepEqual(v1.get("1.sql"), [
    { line: 1, column: 18, code: "PRS", message: "Line 1, Position 18: Found unparsable section: 'where'" },
  ]);
  const v3 = parseLintJson(
    "sqlfluff",
    JSON.stringify([{
      filepath: "2.sql",
      violations: [{
        start_line_no: 3,
        start_line_pos: 7,
        end_line_no: 3,
        end_line_pos: 9,
        code: "CP01",
        name: "capitalisation.keywords",
        description: "Keywords must be lower case.",
        warning: false,
        fixes: [],
      }],
      statistics: {},
      timings: {},
    }]),
  )!;
  assert.deepEqual(v3.get("2.sql"), [{
    line: 3,
    column: 7,
    code: "CP01",
    message: "Keywords must be lower case.",
  }]);
});

Deno.test("JSON after warning lines is found; text or a wrong shape is not a result", () => {
  const mixed = 'WARNING Tried to allowlist unknown rules\n[{"filepath": "1.sql", "violations": []}]\n';
  assert.deepEqual([...parseLintJson("sqlfluff", mixed)!.keys()], ["1.sql"]);
  assert.equal(parseLintJson("sqlfluff", "Error: Unknown dialect 'nosuch'\n"), null);
  assert.equal(parseLintJson("sqlfluff", ""), null);
  assert.equal(parseLintJson("sqlfluff", '{"a.sql": []}'), null, "sqruff's shape is not sqlfluff's");
  assert.equal(parseLintJson("sqruff", '[{"filepath": "a.sql", "violations": []}]'), null);
});

Deno.test("dialect lists: sqlfluff's labelled and wrapped lines, and a plain list", () => {
  const sqlfluff = "==== sqlfluff - dialects ====\n" +
    "ansi:                 ansi dialect [inherits from 'nothing']\n" +
    "materializ:   materialize dialect [inherits from 'postgres']\n" +
    "e                                                           \n" +
    "snowflake:          snowflake dialect [inherits from 'ansi']\n";
  assert.deepEqual(parseDialects(sqlfluff), ["ansi", "materialize", "snowflake"]);
  assert.deepEqual(parseDialects("ansi\nbigquery\nsnowflake\n"), ["ansi", "bigquery", "snowflake"]);
});

Deno.test({
  name: "real sqruff: lint -f json has the shape the parser reads",
  ignore: SQRUFF === null,
  async fn() {
    await using ws = await tempWorkspace({ "a.sql": "SELECT 1 ,4\n", "b.sql": "select a, from t where\n" });
    const output = await new Deno.Command(SQRUFF!.path, {
      args: ["--dialect", "snowflake", "--parsing-errors", "lint", "-f", "json", "a.sql", "b.sql"],
      cwd: ws.path,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const files = parseLintJson("sqruff", new TextDecoder().decode(output.stdout));
    assert.ok(files, "stdout is sqruff JSON");
    const a = [...files].find(([name]) => name.endsWith("a.sql"))![1];
    assert.ok(a.some((v) => v.code === "LT01" && v.line === 1 && v.column === 9), JSON.stringify(a));
    const b = [...files].find(([name]) => name.endsWith("b.sql"))![1];
    assert.ok(b.some((v) => v.code === "PRS"), JSON.stringify(b));
  },
});
