// deno-lint-ignore-file no-console -- a CLI stand-in: stdout and stderr are its output, as sqruff's are.
/**
 * A stand-in for the sqruff CLI, following its documented contract (0.40: global `--config` /
 * `--dialect` / `--library-path` / `--parsing-errors`, listed by `--help`, `lint -f json` printing `{path: [diagnostic]}` with 1-based positions
 * and `code: null` for parse errors, `fix PATHS` rewriting in place, exit 1 for violations and errors
 * alike). It only knows upper-case SELECT/FROM and a trailing `where`, and it logs every call with the
 * config it was given to `$FAKE_SQRUFF_LOG`, so the tests can check what the server asks of sqruff on a
 * machine without it. With `$FAKE_SQRUFF_HANG` set, a run over a file containing that text never ends.
 * The real-sqruff tests run the same scenarios for real where sqruff is installed.
 * @module
 */
const DIALECTS = ["ansi", "bigquery", "postgres", "snowflake"];
const args = [...Deno.args];
const take = (flag: string): string | undefined => {
  const i = args.indexOf(flag);
  return i < 0 ? undefined : args.splice(i, 2)[1];
};
const config = take("--config");
const dialect = take("--dialect");
const libraryPath = take("--library-path");
const parsingErrors = args.includes("--parsing-errors");
const rest = args.filter((a) => a !== "--parsing-errors" && a !== "-f" && a !== "json");
const log = Deno.env.get("FAKE_SQRUFF_LOG");
if (log) {
  const configText = config ? await Deno.readTextFile(config).catch(() => null) : null;
  await Deno.writeTextFile(log, JSON.stringify({ argv: Deno.args, config: configText }) + "\n", {
    append: true,
  });
}
const fail = (message: string): never => {
  console.error(message);
  Deno.exit(1);
};
if (rest[0] === "--version") {
  console.log("sqruff 0.40.0");
  Deno.exit(0);
}
if (rest[0] === "--help") {
  // 0.40's global options: --library-path, no --ignore-local-config yet.
  for (const flag of ["--config <CONFIG>", "--dialect <DIALECT>", "--library-path <LIBRARY_PATH>"]) {
    console.log(`      ${flag}`);
  }
  console.log("      --parsing-errors");
  Deno.exit(0);
}
if (libraryPath !== undefined && libraryPath !== "none") fail("the fake imports no jinja library");
if (rest[0] === "dialects") {
  DIALECTS.forEach((d) => console.log(d));
  Deno.exit(0);
}
if (config !== undefined && !(await Deno.stat(config).catch(() => null))) {
  fail(`The specified config file '${config}' does not exist.`);
}
if (dialect !== undefined && !DIALECTS.includes(dialect)) fail("Matching variant not found");

const diagnostics = (text: string) => {
  const found: Record<string, unknown>[] = [];
  text.split("\n").forEach((line, i) => {
    for (const match of line.matchAll(/\b(SELECT|FROM)\b/g)) {
      const position = { line: i + 1, character: match.index! + 1 };
      found.push({
        range: { start: position, end: position },
        message: "Keywords must be consistently lower case.",
        severity: "Warning",
        source: "sqruff",
        code: "CP01",
      });
    }
  });
  const unparsable = /\bwhere\s*$/i.test(text);
  if (unparsable && parsingErrors) {
    const position = { line: 1, character: text.search(/where\s*$/i) + 1 };
    found.push({
      range: { start: position, end: position },
      message: "Unparsable section",
      severity: "Warning",
      source: "sqruff",
      code: null,
    });
  }
  return { found, unparsable };
};

const [command, ...paths] = rest;
// A stand-in for a backend stuck on one input: it never ends by itself, so only a kill stops it.
const hangOn = Deno.env.get("FAKE_SQRUFF_HANG");
if (hangOn && (command === "lint" || command === "fix")) {
  const texts = await Promise.all(paths.map((path) => Deno.readTextFile(path)));
  if (texts.some((text) => text.includes(hangOn))) {
    if (log) await Deno.writeTextFile(log, JSON.stringify({ hanging: paths }) + "\n", { append: true });
    setInterval(() => {}, 60_000);
    await new Promise(() => {});
  }
}
if (command === "lint") {
  const report: Record<string, unknown[]> = {};
  for (const path of paths) report[path] = diagnostics(await Deno.readTextFile(path)).found;
  console.log(JSON.stringify(report));
  Deno.exit(Object.values(report).some((d) => d.length) ? 1 : 0);
}
if (command === "fix") {
  let leftovers = false;
  for (const path of paths) {
    const text = await Deno.readTextFile(path);
    if (diagnostics(text).unparsable) {
      leftovers = true;
      continue;
    }
    const fixed = text.replace(/\b(SELECT|FROM)\b/g, (k) => k.toLowerCase());
    if (fixed !== text) await Deno.writeTextFile(path, fixed);
  }
  Deno.exit(leftovers ? 1 : 0);
}
fail(`error: unrecognized subcommand '${command}'`);
