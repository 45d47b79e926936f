import assert from "node:assert/strict";
import {
  backendRules,
  coreValue,
  formatRules,
  houseConfigFile,
  setCoreValue,
} from "../../../mcp/sql/config.ts";
import type { Backend } from "../../../mcp/sql/backend.ts";
import { chooseConfig } from "../../../mcp/sql/workspace_config.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

const SQLFLUFF_1: Backend = { kind: "sqlfluff", path: "sqlfluff", version: "1.4.5", major: 1 };
const SQLFLUFF_3: Backend = { kind: "sqlfluff", path: "sqlfluff", version: "3.4.0", major: 3 };
const SQRUFF: Backend = { kind: "sqruff", path: "sqruff", version: "0.40.0", major: 0 };

Deno.test("house configs: one per backend family, each naming snowflake and leading commas", async () => {
  const files = new Set([SQLFLUFF_1, SQLFLUFF_3, SQRUFF].map(houseConfigFile));
  assert.equal(files.size, 3);
  for (const file of files) {
    const text = await Deno.readTextFile(file);
    assert.equal(coreValue(text, "dialect"), "snowflake", file);
    assert.equal(coreValue(text, "large_file_skip_byte_limit"), "2000000", file);
    assert.match(text, /\[(sqlfluff|sqruff):layout:type:comma\]\nline_position = leading/, file);
    const headers = text.match(/^\[.*\]$/gm)!;
    assert.equal(new Set(headers).size, headers.length, `${file} repeats a section (sqlfluff 1.x crashes)`);
  }
  const legacy = await Deno.readTextFile(houseConfigFile(SQLFLUFF_1));
  for (const code of ["L010", "L014", "L030", "L040", "L063"]) {
    assert.match(legacy, new RegExp(`rules:${code}\\]`));
  }
  assert.match(legacy, /\[sqlfluff:rules\]\n(#.*\n)*max_line_length = 120/);
});

Deno.test("a workspace .sqlfluff wins for sqlfluff (vetted, templater pinned); sqruff also reads .sqruff first", async () => {
  const action = { action: "Cannot lint SQL" };
  await using ws = await tempWorkspace({ ".sqlfluff": "[sqlfluff]\ndialect = ansi\n" });
  assert.deepEqual(await chooseConfig(SQLFLUFF_1, ws.path, action), {
    text: "[sqlfluff]\ndialect = ansi\ntemplater = raw\n",
    label: ".sqlfluff (workspace)",
    workspace: true,
  });
  await Deno.writeTextFile(ws.join(".sqruff"), "[sqruff]\ndialect = bigquery\n");
  assert.equal((await chooseConfig(SQRUFF, ws.path, action)).label, ".sqruff (workspace)");
  assert.equal((await chooseConfig(SQLFLUFF_3, ws.path, action)).label, ".sqlfluff (workspace)");
  await using empty = await tempWorkspace();
  assert.equal((await chooseConfig(SQRUFF, empty.path, action)).label, "house style");
});

Deno.test("setCoreValue replaces in place, adds to the core section, or adds one; never repeats a header", () => {
  const ini = "[sqlfluff:rules]\nrules = x\n\n[sqlfluff]\ndialect = ansi\nrules = core\n";
  assert.equal(coreValue(ini, "rules"), "core", "a key of another section is not the core one");
  assert.equal(setCoreValue(ini, "rules", "L010"), ini.replace("rules = core", "rules = L010"));
  assert.equal(
    setCoreValue("[sqruff]\ndialect = ansi\n", "large_file_skip_byte_limit", "0"),
    "[sqruff]\nlarge_file_skip_byte_limit = 0\ndialect = ansi\n",
  );
  assert.equal(
    setCoreValue("[sqruff:rules]\na = b\n", "rules", "CP01", "sqruff"),
    "[sqruff]\nrules = CP01\n\n[sqruff:rules]\na = b\n",
  );
});

Deno.test("rules: sqlfluff 1.x gets 1.x codes for modern codes and groups; others pass through", () => {
  assert.deepEqual(backendRules(["CP01", "lt04", "L016", "capitalisation"], SQLFLUFF_1), [
    "L010",
    "L019",
    "L016",
    "L014",
    "L030",
    "L040",
    "L063",
  ]);
  assert.deepEqual(backendRules(["CP01", "layout"], SQLFLUFF_3), ["CP01", "layout"]);
  assert.deepEqual(backendRules(["CP01"], SQRUFF), ["CP01"]);
  assert.match(formatRules(SQLFLUFF_1), /^L001,.*L010,.*L019,.*L063/);
  assert.doesNotMatch(formatRules(SQLFLUFF_1), /L031|all/, "never the alias-rewriting rules");
  assert.equal(formatRules(SQRUFF), "capitalisation,layout,AM02,CV01,CV02,CV03,CV05");
});
