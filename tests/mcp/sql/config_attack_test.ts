/**
 * The attacks of a cloned repository on the sql server, performed through the real MCP protocol against
 * the real backends: a workspace config that makes the backend import code, inline `-- sqlfluff:`
 * directives that try the same, and configs planted above the server's temp folder.
 */
import assert from "node:assert/strict";
import { connect, textOf } from "../../_support/connect.ts";
import { type TempWorkspace, tempWorkspace } from "../../_support/workspace.ts";
import { BACKENDS, sqlServer } from "./support.ts";

/** A Python package whose import leaves `marker` behind: proof that workspace code ran. */
function evilPackage(ws: { join(...parts: string[]): string }): string {
  const marker = JSON.stringify(ws.join("marker"));
  return `import os\nopen(${marker}, "w").write(f"code ran as uid {os.getuid()}")\n`;
}

async function assertNoMarker(ws: TempWorkspace): Promise<void> {
  const marker = await Deno.readTextFile(ws.join("marker")).catch(() => null);
  assert.equal(marker, null, `workspace code ran: ${marker}`);
}

/** The exploit config per backend: sqlfluff's `library_path`, sqruff's (PyPI build) `library_paths`. */
function exploitConfig(kind: "sqlfluff" | "sqruff", evil: string): string {
  return kind === "sqlfluff"
    ? `[sqlfluff]\ndialect = ansi\ntemplater = jinja\n\n[sqlfluff:templater:jinja]\nlibrary_path = ${evil}\n`
    : `[sqruff]\ndialect = ansi\ntemplater = jinja\n\n[sqruff:templater:jinja]\nlibrary_paths = ${evil}\n`;
}

for (const { name, kind, found, config: configName } of BACKENDS) {
  const ignore = found === null;
  const prefix = kind;
  const libraryKey = kind === "sqlfluff" ? "library_path" : "library_paths";

  Deno.test({
    name: `${name}: a workspace ${configName} with templater = jinja and ${libraryKey} runs no code`,
    ignore,
    async fn() {
      await using ws = await tempWorkspace();
      await Deno.writeTextFile(ws.join(configName), exploitConfig(kind, ws.join("evil")));
      await Deno.mkdir(ws.join("evil"));
      await Deno.writeTextFile(ws.join("evil", "__init__.py"), evilPackage(ws));
      await using c = await connect(sqlServer(ws.path, { backend: found }));
      for (
        const [tool, args] of [["sql_lint", { sql: "select 1\n" }], ["sql_format", { sql: "select 1\n" }]]
      ) {
        const result = await c.call(tool as string, args as Record<string, unknown>);
        await assertNoMarker(ws);
        assert.equal(result.isError, true, textOf(result));
        const text = textOf(result);
        assert.match(
          text,
          /^Error \[permission_denied\]: Cannot (lint|format) SQL: cannot use \.(sqlfluff|sqruff): /,
        );
        assert.ok(text.includes(`[${prefix}] templater = jinja`), text);
        assert.ok(text.includes(`[${prefix}:templater:jinja] ${libraryKey}`), text);
      }
    },
  });

  Deno.test({
    name: `${name}: inline -- sqlfluff: directives cannot switch to the jinja templater and import code`,
    ignore,
    async fn() {
      await using ws = await tempWorkspace();
      await Deno.mkdir(ws.join("evil"));
      await Deno.writeTextFile(ws.join("evil", "__init__.py"), evilPackage(ws));
      const sql = [
        "-- sqlfluff:templater:jinja",
        `-- sqlfluff:templater:jinja:library_path:${ws.join("evil")}`,
        `-- sqlfluff:templater:jinja:library_paths:${ws.join("evil")}`,
        "select {{ 1 }}",
        "",
      ].join("\n");
      await Deno.writeTextFile(ws.join("q.sql"), sql);
      await using c = await connect(sqlServer(ws.path, { backend: found }));
      const inline = await c.call("sql_lint", { sql });
      const file = await c.call("sql_lint", { path: "q.sql" });
      const formatted = await c.call("sql_format", { path: "q.sql" });
      await assertNoMarker(ws);
      // The raw templater stays: `{{ 1 }}` is unparsable SQL, not a rendered `1`.
      for (const result of [inline, file]) assert.match(textOf(result), / PRS /, textOf(result));
      assert.match(textOf(formatted), /the SQL does not parse/);
    },
  });

  Deno.test({
    name: `${name}: configs planted above the server's temp folder are not read`,
    ignore,
    async fn() {
      // `root` plays /tmp: anyone on the machine may write config and ignore files there.
      await using root = await tempWorkspace();
      await Deno.mkdir(root.join("evil"));
      await Deno.writeTextFile(root.join("evil", "__init__.py"), evilPackage(root));
      // Each file both names a code-running templater and excludes the keyword rule: either would show.
      const evil = root.join("evil");
      const planted = (prefix: string) =>
        `[${prefix}]\ntemplater = jinja\nexclude_rules = L010,CP01\n\n[${prefix}:templater:jinja]\n` +
        `library_path = ${evil}\nlibrary_paths = ${evil}\n`;
      for (const file of [".sqlfluff", ".sqruff", ".sqruff.ini", "setup.cfg", "tox.ini", "pep8.ini"]) {
        await Deno.writeTextFile(root.join(file), planted(file === ".sqruff" ? "sqruff" : "sqlfluff"));
      }
      const toml = `[tool.sqlfluff.core]\ntemplater = "jinja"\nexclude_rules = "L010,CP01"\n` +
        `[tool.sqlfluff.templater.jinja]\nlibrary_path = ${JSON.stringify(evil)}\n` +
        `library_paths = ${JSON.stringify(evil)}\n`;
      for (const file of ["pyproject.toml", "sqruff.toml"]) await Deno.writeTextFile(root.join(file), toml);
      for (const file of [".sqlfluffignore", ".sqruffignore"]) {
        await Deno.writeTextFile(root.join(file), "*.sql\n");
      }
      // With the house style, and with a workspace config that names no templater (a planted one would).
      for (const files of [{}, { [configName]: `[${kind}]\ndialect = snowflake\n` }]) {
        await using ws = await tempWorkspace(files);
        await using c = await connect(sqlServer(ws.path, { backend: found, tempDir: root.path }));
        const text = await c.text("sql_lint", { sql: "SELECT a from t\n" });
        await assertNoMarker(root);
        // Mixed case breaks the house policy (lower) and the default one (consistent) alike.
        assert.match(text, /^1 violation \((L010|CP01)\)\n/, `nothing planted may apply: ${text}`);
        const left = [...Deno.readDirSync(root.path)].filter((e) => e.name.startsWith("sql-mcp-"));
        assert.deepEqual(left, [], "the run's temp folder is removed");
      }
    },
  });

  Deno.test({
    name:
      `${name}: a legitimate workspace ${configName} (dialect, rules, capitalisation, layout) still applies`,
    ignore,
    async fn() {
      const config = kind === "sqlfluff"
        // sqlfluff 1.x keys rules by code and wants max_line_length under [sqlfluff:rules]; >= 2 by name.
        ? [
          "# a typical project config",
          "[sqlfluff]",
          "dialect = postgres",
          "rules = L010, L019, L016,",
          "  CP01, LT04, LT05",
          "verbose = 0",
          "processes = -1",
          "[sqlfluff:rules]",
          "max_line_length = 40",
          "[sqlfluff:indentation]",
          "tab_space_size = 2",
          "[sqlfluff:layout:type:comma]",
          "line_position = leading",
          "[sqlfluff:rules:L010]",
          "capitalisation_policy = upper",
          "[sqlfluff:rules:capitalisation.keywords]",
          "capitalisation_policy = upper",
          "",
        ].join("\n")
        : [
          "[sqruff]",
          "dialect = postgres",
          "rules = CP01, LT04, LT05",
          "max_line_length = 40",
          "[sqruff:indentation]",
          "tab_space_size = 2",
          "[sqruff:layout:type:comma]",
          "line_position = leading",
          "[sqruff:rules:capitalisation.keywords]",
          "capitalisation_policy = upper",
          "",
        ].join("\n");
      await using ws = await tempWorkspace({ [configName]: config });
      await using c = await connect(sqlServer(ws.path, { backend: found }));
      const sql = "select a, b from t where a = 'a long string literal here'\n";
      const lint = await c.text("sql_lint", { sql });
      assert.match(
        lint,
        new RegExp(`\\(${kind} [\\d.]+, config: \\${configName} \\(workspace\\), dialect postgres\\)$`),
      );
      assert.match(
        lint,
        /(L010|CP01) Keywords must be (consistently )?upper case/,
        "capitalisation policy applied",
      );
      assert.match(lint, /(L016|LT05) Line is too long/, "max_line_length applied");
      const formatted = await c.text("sql_format", { sql: "select a,\nb from t\n" });
      assert.match(formatted, /^SELECT\s+a\n\s*, b\nFROM t\n/, "upper case and leading commas applied");
    },
  });
}
