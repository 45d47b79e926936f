/** The vetting of workspace configs, without a backend: each refused class, the canonical output. */
import assert from "node:assert/strict";
import { vetConfig, type VetOptions } from "../../../mcp/sql/vet_config.ts";
import { parseIni } from "../../../mcp/sql/ini.ts";
import { houseConfigFile } from "../../../mcp/sql/config.ts";
import type { Backend } from "../../../mcp/sql/backend.ts";
import { ToolError } from "../../../lib/mcp/errors.ts";

const SQLFLUFF: VetOptions = { file: ".sqlfluff", kind: "sqlfluff", action: "Cannot lint SQL" };
const SQRUFF: VetOptions = { file: ".sqruff", kind: "sqruff", action: "Cannot lint SQL" };

/** The ToolError vetting `text` throws. */
function refusal(text: string, options = SQLFLUFF): ToolError {
  try {
    vetConfig(text, options);
  } catch (error) {
    assert.ok(error instanceof ToolError, String(error));
    return error;
  }
  assert.fail(`accepted:\n${text}`);
}

Deno.test("the exploit config: refused, naming the file, the sections and the keys", () => {
  const error = refusal(
    "[sqlfluff]\ndialect = ansi\ntemplater = jinja\n\n[sqlfluff:templater:jinja]\nlibrary_path = /x/evil\n",
  );
  assert.equal(error.code, "permission_denied");
  assert.equal(
    error.message,
    "Cannot lint SQL: cannot use .sqlfluff: [sqlfluff] templater = jinja is not allowed (that " +
      "templater can run code; use raw or placeholder); also refused: [sqlfluff:templater:jinja] " +
      "library_path; remove them (docs/servers/sql.md lists what a workspace config may set)",
  );
  const sqruff = refusal("[sqruff:templater:jinja]\nlibrary_paths = evil\n", SQRUFF);
  assert.equal(
    sqruff.message,
    "Cannot lint SQL: cannot use .sqruff: [sqruff:templater:jinja] library_paths is not allowed (it " +
      "imports Python code from a folder); remove it (docs/servers/sql.md lists what a workspace config may set)",
  );
});

Deno.test("each class of setting that can load code or files is refused", () => {
  const cases: [config: string, where: string, why: RegExp][] = [
    // Templaters that run code, however the value is spelled.
    ["[sqlfluff]\ntemplater = python", "[sqlfluff] templater = python", /that templater can run code/],
    ["[sqlfluff]\ntemplater = dbt", "[sqlfluff] templater = dbt", /can run code/],
    ["[sqruff]\ntemplater = sqlmesh", "[sqruff] templater = sqlmesh", /can run code/],
    ["[sqlfluff]\nTemplater =  JINJA ", "[sqlfluff] Templater = JINJA", /can run code/],
    ["[sqlfluff]\ntemplater: jinja", "[sqlfluff] templater = jinja", /can run code/],
    // Library and macro folders, in any templater section.
    [
      "[sqlfluff:templater:jinja]\nlibrary_path = lib",
      "[sqlfluff:templater:jinja] library_path",
      /imports Python/,
    ],
    ["[sqlfluff:templater:jinja]\nload_macros_from_path = m", "load_macros_from_path", /loads macro files/],
    [
      "[sqlfluff:templater:dbt]\nproject_dir = .",
      "[sqlfluff:templater:dbt] project_dir",
      /names a file or folder/,
    ],
    ["[sqlfluff:templater:dbt]\nprofiles_dir = ~/.dbt", "profiles_dir", /names a file or folder/],
    // Any other setting of a templater that runs code: macros are Jinja code, context feeds it.
    ["[sqlfluff:templater:jinja]\napply_dbt_builtins = True", "apply_dbt_builtins", /jinja templater, which/],
    ["[sqlfluff:templater:jinja:macros]\nm = {% macro m() %}{% endmacro %}", "jinja:macros] m", /jinja/],
    ["[sqlfluff:templater:jinja:context]\nx = 1", "[sqlfluff:templater:jinja:context] x", /jinja/],
    ["[sqlfluff:templater:python:context]\nx = 1", "python:context] x", /python templater/],
    ["[sqlfluff:templater:dbt]\nprofile = default", "[sqlfluff:templater:dbt] profile", /dbt templater/],
    ["[sqruff:templater:sqlmesh]\nproject = p", "[sqruff:templater:sqlmesh] project", /sqlmesh templater/],
    // Any key naming a path, anywhere.
    ["[sqlfluff]\nsome_dir = /etc", "[sqlfluff] some_dir", /names a file or folder/],
    ["[sqlfluff:rules:L010]\nwords_path = /etc/passwd", "words_path", /names a file or folder/],
    ["[sqlfluff]\nlibrary_path = /x", "[sqlfluff] library_path", /imports Python/],
    // sqlfluff >= 3 nests dotted keys: this one would land in [sqlfluff:templater:jinja].
    ["[sqlfluff:templater]\njinja.apply_dbt_builtins = True", "jinja.apply_dbt_builtins", /dotted keys/],
    // Case and spaces fool neither the vetting nor sqruff (which lowercases names).
    ["[ SQLFLUFF:Templater:JINJA ]\nLibrary_Path = x", "[SQLFLUFF:Templater:JINJA] Library_Path", /imports/],
    // Unknown keys and sections: not passed on, whatever they would do.
    ["[sqlfluff]\nrecursion_limit = 100000", "[sqlfluff] recursion_limit", /not on the sql server's list/],
    ["[sqlfluff]\nuse_rust_parser = True", "[sqlfluff] use_rust_parser", /not on the sql server's list/],
    ["[sqlfluff:rules:L010]\ncustom = x", "[sqlfluff:rules:L010] custom", /not on the sql server's list/],
    ["[sqlfluff:plugins]\nx = 1", "[sqlfluff:plugins] x", /section is not one/],
    [
      "[sqlfluff:rules:../x]\nforce_enable = True",
      "[sqlfluff:rules:../x] force_enable",
      /section is not one/,
    ],
    ["[sqruff:dialect:postgres]\npgvector = /x", "[sqruff:dialect:postgres] pgvector", /true or false/],
  ];
  for (const [config, where, why] of cases) {
    const error = refusal(config, config.startsWith("[sqruff") ? SQRUFF : SQLFLUFF);
    assert.equal(error.code, "permission_denied", config);
    assert.ok(error.message.includes(`${where} is not allowed (`), `${config}\n→ ${error.message}`);
    assert.match(error.message, why, config);
  }
});

Deno.test("many refusals: the first with its reason, four more listed, the rest counted", () => {
  const keys = ["a_path", "b_path", "c_path", "d_path", "e_path", "f_path", "g_path"];
  const error = refusal(`[sqlfluff]\n${keys.map((k) => `${k} = x`).join("\n")}\n`);
  assert.match(
    error.message,
    /\[sqlfluff\] a_path is not allowed \(.*\); also refused: \[sqlfluff\] b_path, \[sqlfluff\] c_path, \[sqlfluff\] d_path, \[sqlfluff\] e_path and 2 more; remove them/,
  );
});

Deno.test("names from the file are clipped in the message; empty sections are left out", () => {
  const error = refusal(`[sqlfluff]\n${"x".repeat(5000)}_path = y\n`);
  assert.ok(error.message.length < 300, error.message);
  assert.match(error.message, /\[sqlfluff\] x{60,}… is not allowed/);
  assert.equal(
    vetConfig("[sqlfluff:templater:jinja]\n[sqlfluff]\n", SQLFLUFF),
    "[sqlfluff]\ntemplater = raw\n",
  );
});

Deno.test("broken INI is invalid_argument naming the line", () => {
  const cases: [string, RegExp][] = [
    ["[sqlfluff]\ndialect ansi\n", /line 2 is not a \[section\], key = value or comment/],
    ["dialect = ansi\n[sqlfluff]\n", /line 1 has a key before the first \[section\]/],
    ["[sqlfluff]\ndialect = ansi\u0000\n", /line 2 holds a control character/],
    ["[sqlfluff]\ndialect = ansi\u2028templater = jinja\n", /line 2 holds a control character/],
  ];
  for (const [config, message] of cases) {
    const error = refusal(config);
    assert.equal(error.code, "invalid_argument", config);
    assert.match(error.message, /^Cannot lint SQL: cannot use \.sqlfluff: /);
    assert.match(error.message, message);
  }
});

Deno.test("the output is canonical: merged sections, folded continuations, templater pinned to raw", () => {
  const config = [
    "\uFEFF# project config",
    "[sqlfluff]",
    "dialect = snowflake",
    "rules = L010,",
    "    L014",
    // Indented deeper than its key: a continuation to configparser, so never a section header.
    "  [sqlfluff:templater:jinja]",
    "verbose = 2",
    "processes = -1",
    "[tool:pytest]",
    "addopts = -x",
    "[DEFAULT]",
    "library_path = /evil",
    "[sqlfluff:rules:L010]",
    "capitalisation_policy = upper",
    "[sqlfluff:layout:type:comma]",
    "line_position = leading",
    "; a comment",
    "[sqlfluff:rules:L010]",
    "ignore_words = foo,bar",
    "[sqlfluff:templater:placeholder]",
    "param_style = colon",
    "UserId = 42",
    "",
  ].join("\r\n");
  assert.equal(
    vetConfig(config, SQLFLUFF),
    "[sqlfluff]\ndialect = snowflake\nrules = L010, L014 [sqlfluff:templater:jinja]\ntemplater = raw\n\n" +
      "[sqlfluff:rules:L010]\ncapitalisation_policy = upper\nignore_words = foo,bar\n\n" +
      "[sqlfluff:layout:type:comma]\nline_position = leading\n\n" +
      "[sqlfluff:templater:placeholder]\nparam_style = colon\nUserId = 42\n",
  );
  // A named safe templater stays (canonically spelled); sqruff's core may be [sqlfluff] or [sqruff].
  assert.equal(
    vetConfig("[sqlfluff]\ntemplater = Placeholder\n", SQRUFF),
    "[sqruff]\n\n[sqlfluff]\ntemplater = placeholder\n",
  );
  assert.equal(
    vetConfig("[sqlfluff]\ndialect = ansi\n", SQRUFF),
    "[sqruff]\ntemplater = raw\n\n[sqlfluff]\ndialect = ansi\n",
  );
  // sqlfluff reads neither [sqruff] nor a `Templater` key: its own section gets the pin.
  assert.equal(
    vetConfig("[sqruff]\ntemplater = raw\n[sqlfluff]\nTemplater = raw\n", SQLFLUFF),
    "[sqlfluff]\nTemplater = raw\ntemplater = raw\n\n[sqruff]\ntemplater = raw\n",
  );
});

Deno.test("vetting is idempotent and every house config passes it unchanged in meaning", async () => {
  const backends: Backend[] = [
    { kind: "sqruff", path: "sqruff", version: "0.44.0", major: 0 },
    { kind: "sqlfluff", path: "sqlfluff", version: "1.4.5", major: 1 },
    { kind: "sqlfluff", path: "sqlfluff", version: "3.4.0", major: 3 },
  ];
  for (const backend of backends) {
    const house = await Deno.readTextFile(houseConfigFile(backend));
    const options = { ...SQLFLUFF, kind: backend.kind };
    const vetted = vetConfig(house, options);
    assert.equal(vetConfig(vetted, options), vetted, "idempotent");
    const entries = (text: string) =>
      parseIni(text).flatMap((s) => s.entries.map((e) => `[${s.name}] ${e.key} = ${e.value}`)).sort();
    assert.deepEqual(entries(vetted), entries(house), houseConfigFile(backend));
  }
});
