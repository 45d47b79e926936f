/**
 * Time per sql_format / sql_lint call, against the bare backend CLI measured in the same run.
 * `deno run -A bench/sql.ts [runs] [only]` prints a markdown table (medians); `only` keeps the cases whose
 * name contains it (`deno run -A bench/sql.ts 1 200` runs just the 200-file batch). Uses the backend the
 * tests would pick first (sqruff, else sqlfluff; `.ci/.venv-sql/`, `SQRUFF_PATH`, `SQLFLUFF_PATH`, PATH);
 * `bench/sql_engines.ts` compares the backends.
 * @module
 */
// deno-lint-ignore-file no-console -- a script whose output is the report.
import { join } from "node:path";
import { createServer } from "../mcp/sql/server.ts";
import { formatRules, houseConfigFile, setCoreValue } from "../mcp/sql/config.ts";
import { Workspace } from "../lib/workspace/workspace.ts";
import { connect } from "../tests/_support/connect.ts";
import { backendEnv, MESSY, SQLFLUFF, SQLFLUFF_1, SQRUFF } from "../tests/mcp/sql/support.ts";

const RUNS = Number(Deno.args[0] ?? 3);
const ONLY = Deno.args[1];
const BATCH = 10;
/** The big batch: many small dbt-style models, as one call and as one bare CLI process. */
const MODELS = 200;
const model = (i: number) =>
  `SELECT Order_ID, Customer_Id, SUM(Amount) AS Total\nFROM Analytics.Orders_${i}\nWHERE Status = 'OPEN'\nGROUP BY 1, 2\n`;
const backend = SQRUFF ?? SQLFLUFF ?? SQLFLUFF_1;
if (!backend) throw new Error("No sqruff or sqlfluff: run .ci/run, or set SQRUFF_PATH / SQLFLUFF_PATH");
const env = { ...Deno.env.toObject(), ...backendEnv(backend) };

const dir = await Deno.makeTempDir({ prefix: "sql-bench-" });
const files = Array.from({ length: BATCH }, (_, i) => `q${i}.sql`);
await Promise.all(files.map((f) => Deno.writeTextFile(join(dir, f), MESSY)));
const models = Array.from({ length: MODELS }, (_, i) => `models/m${i}.sql`);
await Deno.mkdir(join(dir, "models"));
await Promise.all(models.map((f, i) => Deno.writeTextFile(join(dir, f), model(i))));
const config = houseConfigFile(backend);
// The fair baseline for sql_format is a fix with the same narrowed rule set.
const fixConfig = join(dir, "fix.cfg");
await Deno.writeTextFile(
  fixConfig,
  setCoreValue(await Deno.readTextFile(config), "rules", formatRules(backend), backend.kind),
);

/** The bare CLI, as a user would run it: one process, JSON lint or in-place fix, house config. */
async function cli(command: "lint" | "fix", paths: string[]): Promise<void> {
  const config = command === "fix" ? fixConfig : houseConfigFile(backend!);
  const args = backend!.kind === "sqruff"
    ? ["--config", config, command, ...(command === "lint" ? ["-f", "json"] : []), ...paths]
    : [
      command,
      "--ignore-local-config",
      "--config",
      config,
      ...(command === "lint" ? ["--format", "json"] : ["--force"]),
      ...paths,
    ];
  await new Deno.Command(backend!.path, { args, cwd: dir, stdout: "null", stderr: "null" }).output();
}

/** Medians of `a` and `b`, run alternately so that both see the same machine load. */
async function pair(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  runs = RUNS,
): Promise<[number, number]> {
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < runs; i++) {
    for (const [side, fn] of [[0, a], [1, b]] as const) {
      const start = performance.now();
      await fn();
      times[side].push(performance.now() - start);
    }
  }
  const mid = (list: number[]) => list.sort((x, y) => x - y)[Math.floor(list.length / 2)];
  return [mid(times[0]), mid(times[1])];
}

const reset = () => Promise.all(files.map((f) => Deno.writeTextFile(join(dir, f), MESSY)));
await using c = await connect(
  createServer({ workspace: new Workspace({ cwd: dir }), env, timeoutMs: 300_000 }),
);
await c.text("sql_lint", { sql: "select 1\n" }); // discovery (`--version`) once, as a server does

const rows: [string, number, string, number][] = [];
const row = async (
  name: string,
  a: () => Promise<unknown>,
  base: string,
  b: () => Promise<unknown>,
  runs?: number,
) => {
  if (ONLY && !name.includes(ONLY)) return;
  const [ms, baseMs] = await pair(a, b, runs);
  rows.push([name, ms, base, baseMs]);
};
await row(
  "sql_lint, 1 statement",
  () => c.text("sql_lint", { sql: MESSY }),
  "CLI lint",
  () => cli("lint", [files[0]]),
);
await row("sql_format, 1 statement", () => c.text("sql_format", { sql: MESSY }), "CLI fix", async () => {
  await reset();
  await cli("fix", [files[0]]);
});
const batchRuns = Math.min(RUNS, 2);
await row(
  `sql_lint, ${BATCH} files in one call`,
  async () => {
    await reset(); // The fix baselines rewrite the files: every run starts from the messy ones.
    await c.text("sql_lint", { paths: files });
  },
  `sql_lint, ${BATCH} calls of 1 file`,
  async () => {
    await reset();
    for (const f of files) await c.text("sql_lint", { path: f });
  },
  batchRuns,
);
await row(
  `sql_format, ${BATCH} files in one call`,
  async () => {
    await reset();
    await c.text("sql_format", { paths: files });
  },
  `CLI fix, ${BATCH} files`,
  async () => {
    await reset();
    await cli("fix", files);
  },
  batchRuns,
);
await row(
  `sql_lint, ${MODELS} small models in one call (chunks in parallel)`,
  // Past the SDK client's default 60 s request timeout on a loaded machine.
  () =>
    c.client.callTool({ name: "sql_lint", arguments: { path: "models" } }, undefined, { timeout: 600_000 }),
  `CLI lint, ${MODELS} files in one process`,
  () => cli("lint", models),
  1,
);
await Deno.remove(dir, { recursive: true });

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
console.log(
  `${backend.kind} ${backend.version}, median of ${RUNS} (batches: ${batchRuns}), statement = 556-byte Snowflake SELECT\n`,
);
console.log("| Case | Time | Baseline | Baseline time | Ratio |\n|---|---|---|---|---|");
for (const [name, ms, base, baseMs] of rows) {
  console.log(`| ${name} | ${s(ms)} | ${base} | ${s(baseMs)} | ${(ms / baseMs).toFixed(2)}× |`);
}
