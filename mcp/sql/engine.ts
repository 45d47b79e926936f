/**
 * Formats and lints a batch of SQL texts with one backend process per step: the texts are staged as
 * files in a temp working folder next to the chosen config (sqruff reads config from its cwd only), so
 * the user's files are never touched here and no other config can leak in.
 * @module
 */
import { basename, join } from "node:path";
import { ToolError } from "../../lib/mcp/errors.ts";
import type { Backend } from "./backend.ts";
import { backendRules, type ChosenConfig, coreValue, formatRules, setCoreValue } from "./config.ts";
import { PARSE_CODES, parseLintJson, sortViolations, type Violation } from "./parse.ts";
import { runBackend, type RunOutput } from "./run.ts";
import { backendFailure } from "./failure.ts";

/** One SQL text to check: inline or read from a workspace file. */
export interface SqlInput {
  /** How results name it: a workspace path, or empty for inline SQL. */
  name: string;
  content: string;
  /** Why it was not checked (not UTF-8, unreadable, not finished in time); the backend never sees it. */
  skipped?: string;
}

/** What every run needs. */
export interface EngineOptions {
  backend: Backend;
  config: ChosenConfig;
  /** Overrides the config's dialect. */
  dialect?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** The backend's whole environment. */
  env?: Record<string, string>;
  /** Where the temp working folder is made; default: the OS temp folder. */
  tempDir?: string;
}

/** The outcome of formatting one input. */
export interface FormatOutcome {
  /** The formatted text; the input unchanged when it does not parse. */
  formatted: string;
  /** Parse or templating errors: when any, nothing was formatted. */
  parseErrors: Violation[];
  /** Violations the formatter could not fix. */
  remaining: Violation[];
  /** Set when the input was not formatted at all (then `formatted` is the input): why. */
  skipped?: string;
}

/** Above the 1 MB input cap, so no input is skipped as "too large to parse" (the default is 20000). */
const NO_SIZE_SKIP = "2000000";

/** The house dialect when neither the argument nor the config names one. */
export const DEFAULT_DIALECT = "snowflake";

/** Lints every input with one backend run; violations per input, sorted. */
export async function lintInputs(
  inputs: readonly SqlInput[],
  options: EngineOptions & { rules?: readonly string[] },
): Promise<Violation[][]> {
  return await withStage(
    inputs,
    options,
    (stage) => lintStaged(stage, { ...options, action: "Cannot lint SQL", rules: options.rules }),
  );
}

/** Formats every input with one `fix` run (plus one lint run when something is left to report). */
export async function formatInputs(
  inputs: readonly SqlInput[],
  options: EngineOptions,
): Promise<FormatOutcome[]> {
  return await withStage(inputs, options, async (stage) => {
    const action = "Cannot format SQL";
    const rules = formatRules(options.backend).split(",");
    const fixArgs = options.backend.kind === "sqruff" ? ["fix"] : ["fix", "--force"];
    const fixed = await runStaged(stage, fixArgs, { ...options, action, rules });
    const clean = fixed.code === 0;
    if (!clean && !(fixed.code === 1 || options.backend.kind === "sqruff")) {
      throw await backendFailure(fixed, { ...options, action, workDir: stage.dir });
    }
    const leftovers = clean ? inputs.map(() => []) : await lintStaged(stage, { ...options, action, rules });
    return await Promise.all(inputs.map(async (input, i) => {
      const parseErrors = leftovers[i].filter((v) => PARSE_CODES.has(v.code));
      const formatted = parseErrors.length
        ? input.content
        : keepLineEndings(input.content, await Deno.readTextFile(stage.files[i]));
      return { formatted, parseErrors, remaining: parseErrors.length ? [] : leftovers[i] };
    }));
  });
}

/**
 * sqlfluff reads with universal newlines and writes the OS's breaks (`\r\n` on Windows): a file with only
 * CRLF breaks keeps them, a file without any stays LF-only.
 */
export function keepLineEndings(original: string, formatted: string): string {
  if (!original.includes("\r\n")) return formatted.replaceAll("\r\n", "\n");
  const crlfOnly = !/(^|[^\r])\n/.test(original);
  return crlfOnly ? formatted.replace(/\r?\n/g, "\r\n") : formatted;
}

interface Stage {
  dir: string;
  files: string[];
  configFile: string;
}

async function withStage<T>(
  inputs: readonly SqlInput[],
  options: EngineOptions,
  body: (stage: Stage) => Promise<T>,
): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "sql-mcp-", dir: options.tempDir });
  try {
    const configFile = join(dir, options.backend.kind === "sqruff" ? ".sqruff" : "sql-mcp.cfg");
    await Deno.writeTextFile(configFile, options.config.text);
    const files = inputs.map((_, i) => join(dir, `${i + 1}.sql`));
    await Promise.all(inputs.map((input, i) => Deno.writeTextFile(files[i], input.content)));
    return await body({ dir, files, configFile });
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

interface StagedRun extends EngineOptions {
  action: string;
  rules?: readonly string[];
}

async function lintStaged(stage: Stage, options: StagedRun): Promise<Violation[][]> {
  const args = options.backend.kind === "sqruff" ? ["lint", "-f", "json"] : ["lint", "--format", "json"];
  const output = await runStaged(stage, args, options);
  const parsed = output.code <= 1 ? parseLintJson(options.backend.kind, output.stdout) : null;
  if (!parsed) throw await backendFailure(output, { ...options, workDir: stage.dir });
  // An unknown rule is only a warning to sqlfluff, which then lints nothing: 1.x says "unknown rules: [...]",
  // 4.x "unknown rule references: [...]".
  const unknownRules = output.stderr.match(/unknown rules?(?: references)?:?\s*(.*)/i);
  if (unknownRules && options.rules?.length) {
    throw new ToolError(
      "invalid_argument",
      `${options.action}: ${options.backend.kind} ${options.backend.version} does not know the rules ${
        unknownRules[1].trim()
      }; list them with \`${options.backend.kind} rules\``,
    );
  }
  const byName = new Map<string, Violation[]>();
  for (const [file, violations] of parsed) byName.set(basename(file), violations);
  return stage.files.map((file) => sortViolations(byName.get(basename(file)) ?? []));
}

/** Runs one backend command over every staged file with the config, dialect and rule set applied. */
async function runStaged(stage: Stage, command: string[], options: StagedRun): Promise<RunOutput> {
  const { backend } = options;
  let config = options.config.text;
  if (coreValue(config, "large_file_skip_byte_limit") === undefined) {
    config = setCoreValue(config, "large_file_skip_byte_limit", NO_SIZE_SKIP, backend.kind);
  }
  const dialect = options.dialect ?? (coreValue(config, "dialect") ? undefined : DEFAULT_DIALECT);
  const args: string[] = [];
  if (backend.kind === "sqruff") {
    // sqruff has no --rules flag: the rule set goes into its config.
    if (options.rules?.length) config = setCoreValue(config, "rules", options.rules.join(","), "sqruff");
    // Only our config, and no jinja library even if a directive asks (see ISOLATION_FLAGS).
    const flags = backend.flags ?? [];
    args.push("--config", stage.configFile);
    if (flags.includes("--ignore-local-config")) args.push("--ignore-local-config");
    if (flags.includes("--library-path")) args.push("--library-path", "none");
    args.push("--parsing-errors", ...command);
  } else {
    args.push(...command, "--ignore-local-config", "--config", stage.configFile);
    if (options.rules?.length) args.push("--rules", backendRules(options.rules, backend).join(","));
  }
  if (dialect) args.push("--dialect", dialect);
  await Deno.writeTextFile(stage.configFile, config);
  args.push(...stage.files.map((file) => basename(file)));
  return await runBackend(backend.path, args, {
    cwd: stage.dir,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    env: options.env,
    action: options.action,
  });
}
