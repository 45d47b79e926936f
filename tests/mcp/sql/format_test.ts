import assert from "node:assert/strict";
import { connect, textOf } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { isWindows } from "../../../lib/platform/mod.ts";
import { BACKENDS, BAD, MESSY, SEMI, sqlServer } from "./support.ts";

for (const { name, kind, found, config: configName, parseError } of BACKENDS) {
  const ignore = found === null;

  Deno.test({
    name: `${name}: a messy Snowflake SELECT comes out lower case with leading commas; quoted case is kept`,
    ignore,
    async fn() {
      await using ws = await tempWorkspace({ "q/messy.sql": MESSY, "q/semi.sql": SEMI });
      await using c = await connect(sqlServer(ws.path, { backend: found }));
      // One backend process for both files.
      const result = await c.call("sql_format", { path: "q" });
      const text = textOf(result);
      assert.equal(result.isError, undefined, text);
      assert.match(
        text,
        /^-- == q\/messy\.sql: formatted ==\nselect\n {4}o\.order_id\n {4}, o\.customer_id as custid\n/,
      );
      assert.match(text, /\n {4}, iff\(o\.is_priority = true, 'Y', 'N'\) as priority_flag\n/);
      assert.match(
        text,
        /\n {4}, cast\(o\.created_at as date\) as created_date\n {4}, null as placeholder\n/,
      );
      assert.match(
        text,
        /\nqualify row_number\(\) over \(partition by o\.customer_id order by total_amount desc\) = 1\n/,
      );
      assert.match(text, /-- == q\/semi\.sql: formatted ==\nselect\n {4}v:Shipping\.City::string as c\n/);
      assert.match(
        text,
        /\n {4}, v:"Quoted Key"::string as d\n {4}, v\['Key'\] as e\n {4}, "MixedCase" as f\nfrom t\n/,
      );
      assert.match(
        text,
        new RegExp(
          `\\n-- ${kind} [\\d.]+, config: house style, dialect snowflake; 2 formatted files not written: pass write: true to save them$`,
        ),
      );
      assert.equal(await Deno.readTextFile(ws.join("q/messy.sql")), MESSY, "not written without write: true");
    },
  });

  Deno.test({
    name: `${name}: write: true rewrites a file that starts with a UTF-8 BOM and keeps the BOM`,
    ignore,
    async fn() {
      await using ws = await tempWorkspace({ "bom.sql": "\uFEFFSELECT A FROM T\n" });
      await using c = await connect(sqlServer(ws.path, { backend: found }));
      const text = await c.text("sql_format", { path: "bom.sql", write: true });
      assert.match(text, /^1 of 1 file rewritten\nbom\.sql: formatted/, text);
      const bytes = await Deno.readFile(ws.join("bom.sql"));
      assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], "BOM kept");
      assert.equal(new TextDecoder().decode(bytes), "select a from t\n");
    },
  });

  Deno.test({
    name: `${name}: write: true rewrites atomically, keeps the mode, leaves unparsable files alone`,
    ignore,
    async fn() {
      await using ws = await tempWorkspace({
        "a.sql": "SELECT A,B FROM T\n",
        "bad.sql": BAD,
        "ok.sql": "select 1\n",
        "crlf.sql": "SELECT 1\r\nFROM t\r\n",
      });
      // Windows has no permission bits (Deno.chmod throws there): the mode part is POSIX-only.
      if (!isWindows) await Deno.chmod(ws.join("a.sql"), 0o640);
      await using c = await connect(sqlServer(ws.path, { backend: found }));
      const text = await c.text("sql_format", {
        paths: ["a.sql", "bad.sql", "ok.sql", "crlf.sql"],
        write: true,
      });
      assert.match(text, /^2 of 4 files rewritten\na\.sql: formatted, \+\d+ -1 lines\n/, text);
      assert.match(
        text,
        new RegExp(
          `\\nbad\\.sql: not formatted, it does not parse\\n-- the SQL does not parse[^\\n]*\\n-- {3}${parseError}\\n`,
        ),
      );
      assert.match(text, /\nok\.sql: already formatted\n/);
      assert.equal(await Deno.readTextFile(ws.join("a.sql")), "select\n    a\n    , b\nfrom t\n");
      if (!isWindows) assert.equal((await Deno.stat(ws.join("a.sql"))).mode! & 0o777, 0o640);
      assert.equal(await Deno.readTextFile(ws.join("bad.sql")), BAD);
      assert.equal(await Deno.readTextFile(ws.join("crlf.sql")), "select 1\r\nfrom t\r\n", "CRLF kept");
      const names = [];
      for await (const entry of Deno.readDir(ws.path)) names.push(entry.name);
      assert.deepEqual(names.sort(), ["a.sql", "bad.sql", "crlf.sql", "ok.sql"], "no temp file left behind");
    },
  });

  Deno.test({
    name: `${name}: without write, the hint offers saving only the files write: true would change`,
    ignore,
    async fn() {
      await using ws = await tempWorkspace({
        "bad.sql": BAD,
        "ok.sql": "select 1\n",
        "a.sql": "SELECT A FROM T\n",
      });
      await using c = await connect(sqlServer(ws.path, { backend: found }));
      // Seen in the attack: a file that does not parse was followed by "pass write: true to save".
      const bad = await c.text("sql_format", { path: "bad.sql" });
      assert.match(bad, /; nothing to save: no file would change \(bad\.sql does not parse\)$/, bad);
      assert.doesNotMatch(bad, /write: true/);
      const unchanged = await c.text("sql_format", { paths: ["bad.sql", "ok.sql"] });
      assert.match(
        unchanged,
        /; nothing to save: no file would change \(bad\.sql does not parse\)$/,
        unchanged,
      );
      const mixed = await c.text("sql_format", { paths: ["a.sql", "bad.sql", "ok.sql"] });
      assert.match(
        mixed,
        /; a\.sql not written: pass write: true to save it \(bad\.sql does not parse and would be left as is\)$/,
        mixed,
      );
    },
  });

  Deno.test({
    name: `${name}: unparsable inline SQL is returned as parse errors, unchanged`,
    ignore,
    async fn() {
      await using ws = await tempWorkspace();
      await using c = await connect(sqlServer(ws.path, { backend: found }));
      const result = await c.call("sql_format", { sql: `${BAD}-- {{ config(materialized='view') }}\n` });
      assert.equal(result.isError, undefined);
      assert.match(
        textOf(result),
        new RegExp(
          `^-- not formatted: the SQL does not parse, so it was left unchanged \\(it looks templated: Jinja and dbt templates are not rendered here, since rendering can run code\\):\\n-- {3}${parseError}\\n`,
        ),
      );
    },
  });

  Deno.test({
    name: `${name}: a workspace ${configName} overrides the house style and the result says so`,
    ignore,
    async fn() {
      // sqlfluff 1.x keys rule sections by code, sqruff and sqlfluff >= 2 by name: give both.
      const config = kind === "sqruff"
        ? "[sqruff]\ndialect = ansi\n\n[sqruff:rules:capitalisation.keywords]\ncapitalisation_policy = upper\n"
        : "[sqlfluff]\ndialect = ansi\n\n[sqlfluff:rules:L010]\ncapitalisation_policy = upper\n\n" +
          "[sqlfluff:rules:capitalisation.keywords]\ncapitalisation_policy = upper\n";
      await using ws = await tempWorkspace({ [configName]: config });
      await using c = await connect(sqlServer(ws.path, { backend: found }));
      const text = await c.text("sql_format", { sql: "select a from t\n" });
      assert.match(
        text,
        new RegExp(
          `^SELECT a FROM t\\n\\n-- ${kind} [\\d.]+, config: \\${configName} \\(workspace\\), dialect ansi$`,
        ),
      );
    },
  });
}
