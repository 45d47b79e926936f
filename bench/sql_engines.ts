/**
 * sqruff against sqlfluff through the sql server, in one run, the backends taking turns so that machine
 * load hits them alike: one 556-byte statement (lint, format) and a folder of 200 small models (lint,
 * format), with the server's defaults (scaled timeout, one chunk process per core).
 * `deno run -A bench/sql_engines.ts [runs]` prints a markdown table of medians and the ratios to sqruff.
 * Backends as the sql tests find them (`.ci/.venv-sql/` from `.ci/run`, `SQRUFF_PATH`, `SQLFLUFF_PATH`,
 * PATH); `SQL_BENCH_BACKENDS=sqruff,sqlfluff` keeps some (`sqlfluff-1` is Debian's 1.4.5).
 * @module
 */
// deno-lint-ignore-file no-console -- a script whose output is the report.
import { join } from "node:path";
import { createServer } from "../mcp/sql/server.ts";
import { Workspace } from "../lib/workspace/workspace.ts";
import { connect } from "../tests/_support/connect.ts";
import { backendEnv, BACKENDS, MESSY } from "../tests/mcp/sql/support.ts";

const RUNS = Number(Deno.args[0] ?? 3);
const MODELS = 200;
const model = (i: number) =>
  `SELECT Order_ID, Customer_Id, SUM(Amount) AS Total\nFROM Analytics.Orders_${i}\nWHERE Status = 'OPEN'\nGROUP BY 1, 2\n`;
const wanted = Deno.env.get("SQL_BENCH_BACKENDS")?.split(",").map((name) => name.trim());
const engines = BACKENDS.filter((b) => b.found && (!wanted || wanted.includes(b.name)));
if (!engines.some((b) => b.name === "sqruff") || engines.length < 2) {
  throw new Error(
    "Needs sqruff and a sqlfluff: run .ci/run (it installs both) or set SQRUFF_PATH/SQLFLUFF_PATH",
  );
}

const dir = await Deno.makeTempDir({ prefix: "sql-engines-" });
await Deno.mkdir(join(dir, "models"));
await Promise.all(
  Array.from({ length: MODELS }, (_, i) => Deno.writeTextFile(join(dir, "models", `m${i}.sql`), model(i))),
);
const env = Deno.env.toObject();
const clients: Awaited<ReturnType<typeof connect>>[] = [];
for (const engine of engines) {
  const server = createServer({
    workspace: new Workspace({ cwd: dir }),
    env: { ...env, ...backendEnv(engine.found!) },
  });
  const client = await connect(server);
  await client.text("sql_lint", { sql: "select 1\n" }); // discovery (`--version`) once, as a server does
  clients.push(client);
}

/** Calls a tool past the SDK client's default 60 s request timeout (sqlfluff batches take minutes). */
const call = (i: number, name: string, args: Record<string, unknown>) =>
  clients[i].client.callTool({ name, arguments: args }, undefined, { timeout: 900_000 });

const CASES: [string, string, Record<string, unknown>, number][] = [
  ["sql_lint, 1 statement", "sql_lint", { sql: MESSY }, RUNS],
  ["sql_format, 1 statement", "sql_format", { sql: MESSY }, RUNS],
  [`sql_lint, ${MODELS} small models in one call`, "sql_lint", { path: "models" }, 1],
  [`sql_format, ${MODELS} small models in one call`, "sql_format", { path: "models" }, 1],
];
const rows: [string, number[]][] = [];
for (const [label, tool, args, runs] of CASES) {
  const times: number[][] = engines.map(() => []);
  for (let run = 0; run < runs; run++) {
    for (let i = 0; i < engines.length; i++) {
      const start = performance.now();
      const result = await call(i, tool, args);
      times[i].push(performance.now() - start);
      if (result.isError) throw new Error(`${engines[i].name} ${label}: ${JSON.stringify(result.content)}`);
    }
  }
  const median = (list: number[]) => list.sort((x, y) => x - y)[Math.floor(list.length / 2)];
  rows.push([label, times.map(median)]);
}
for (const client of clients) await client[Symbol.asyncDispose]();
await Deno.remove(dir, { recursive: true });

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const names = engines.map((e) => `${e.kind} ${e.found!.version}`);
console.log(
  `sqruff vs sqlfluff through sql-mcp, median of ${RUNS} (200-file cases: 1 run), ` +
    `${navigator.hardwareConcurrency} cores, statement = 556-byte Snowflake SELECT\n`,
);
console.log(
  `| Case | ${names.join(" | ")} | ${names.slice(1).map((n) => `${n} / sqruff`).join(" | ")} |`,
);
console.log(`|---|${engines.map(() => "---|").join("")}${engines.slice(1).map(() => "---|").join("")}`);
for (const [label, ms] of rows) {
  const ratios = ms.slice(1).map((m) => `${(m / ms[0]).toFixed(1)}×`);
  console.log(`| ${label} | ${ms.map(s).join(" | ")} | ${ratios.join(" | ")} |`);
}
