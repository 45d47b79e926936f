/** Turns a failed backend run into a ToolError that says what went wrong and how to fix it. */
import { ToolError } from "../../lib/mcp/errors.ts";
import type { Backend } from "./backend.ts";
import { type ChosenConfig, coreValue } from "./config.ts";
import { runBackend, type RunOutput } from "./run.ts";

const DETAIL_CHARS = 600;
const UNKNOWN_DIALECT =
  /(unknown|invalid|unrecogni[sz]ed|unsupported|no such)\b[^\n]*dialect|dialect[^\n]*\b(unknown|not (found|supported|valid)|does not exist|invalid)/i;

/** What the diagnosis needs to know about the failed run. */
export interface FailureContext {
  backend: Backend;
  config: ChosenConfig;
  dialect?: string;
  action: string;
  /** The temp working folder, hidden from the message. */
  workDir: string;
  timeoutMs: number;
  signal?: AbortSignal;
  env?: Record<string, string>;
}

/**
 * The error for a run whose exit code or output was not a result: an unknown dialect (listing the valid
 * ones), an unknown rule, or the backend's own words (sqlfluff 1.x prints errors on stdout).
 */
export async function backendFailure(output: RunOutput, context: FailureContext): Promise<ToolError> {
  const { backend, action } = context;
  const text = `${output.stdout}\n${output.stderr}`.replaceAll(context.workDir, ".").trim();
  // sqruff words a bad --dialect as its enum parser does ("Matching variant not found"), so a given
  // dialect is checked against the backend's list whatever the message says.
  const dialectError = UNKNOWN_DIALECT.test(text);
  // sqruff panics on an unknown dialect in a config ("VariantNotFound"): the config's is checked as well.
  const configDialect = context.dialect
    ? undefined
    : coreValue(context.config.text, "dialect")?.toLowerCase();
  if (dialectError || context.dialect || configDialect) {
    const known = await listDialects(context);
    const unknownArgument = context.dialect !== undefined && known.length > 0 &&
      !known.includes(context.dialect);
    const unknownInConfig = configDialect !== undefined && known.length > 0 && !known.includes(configDialect);
    if (unknownArgument || unknownInConfig || dialectError) {
      const source = unknownArgument ? `"${context.dialect}"` : `in ${context.config.label}`;
      return new ToolError(
        "invalid_argument",
        `${action}: unknown dialect ${source}${known.length ? `; use one of: ${known.join(", ")}` : ""}`,
      );
    }
  }
  if (/unknown rule/i.test(text)) {
    const line = text.split("\n").find((l) => /unknown rule/i.test(l)) ?? "";
    return new ToolError(
      "invalid_argument",
      `${action}: ${line.trim()}; list the rules with \`${backend.kind} rules\``,
    );
  }
  const cause = failureCause(text);
  const detail = cause.length > DETAIL_CHARS ? `${cause.slice(0, DETAIL_CHARS)} [...]` : cause;
  const hint = context.config.workspace ? `; check ${context.config.label}` : "";
  return new ToolError(
    "internal",
    `${action}: ${backend.kind} ${backend.version} failed (exit ${output.code}) with config ${context.config.label}: ${
      detail || "no output"
    }${hint}`,
  );
}

/**
 * The part of a backend's error output that names the cause. For a Python traceback (sqlfluff on a broken
 * config) that is the exception line after the last frame, e.g. `KeyError: 'nosuchdialect'`; the frames
 * before it only show where sqlfluff noticed. Other output is returned as it is.
 */
export function failureCause(text: string): string {
  const lines = text.split(/\r?\n/);
  const start = lines.findLastIndex((line) => line.startsWith("Traceback (most recent call last):"));
  if (start < 0) return text.trim();
  const exception = lines.slice(start + 1).find((line) => line.trim() && !/^\s/.test(line));
  return exception?.trim() ?? text.trim();
}

/** The backend's dialect names from `<backend> dialects`; empty when that fails too. */
export async function listDialects(
  context: Pick<FailureContext, "backend" | "timeoutMs" | "signal" | "workDir" | "env">,
): Promise<string[]> {
  try {
    // sqruff >= 0.44 loads discovered configs for every command: keep this one to none too.
    const isolate = context.backend.flags?.includes("--ignore-local-config") ? ["--ignore-local-config"] : [];
    const output = await runBackend(context.backend.path, [...isolate, "dialects"], {
      cwd: context.workDir,
      timeoutMs: context.timeoutMs,
      signal: context.signal,
      env: context.env,
      action: "Cannot list dialects",
    });
    return parseDialects(output.stdout + "\n" + output.stderr);
  } catch {
    return [];
  }
}

/**
 * Dialect names from `sqlfluff dialects` (`ansi:   ansi dialect [...]`, long names wrapped onto the next
 * line at 80 columns: `materializ:` + `e`) or from a plain list, one name a line (sqruff).
 */
export function parseDialects(text: string): string[] {
  const names: string[] = [];
  const labelled = /^[a-z][a-z0-9_]*:/m.test(text);
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*=+/.test(line)) continue;
    const withLabel = line.match(/^([a-z][a-z0-9_]*):/);
    const bare = line.match(/^\s*(?:[-*]\s+)?([a-z][a-z0-9_]*)\s*$/);
    if (withLabel) names.push(withLabel[1]);
    else if (bare && labelled && names.length) names[names.length - 1] += bare[1];
    else if (bare && !labelled) names.push(bare[1]);
  }
  return [...new Set(names)].sort();
}
