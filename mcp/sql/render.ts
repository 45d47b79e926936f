/** The text the model reads: violations one a line, formatted SQL with its notes, write summaries. */
import { diffLines } from "diff";
import { capText } from "../../lib/text/cap.ts";
import { formatCount } from "../../lib/text/format.ts";
import type { Violation } from "./parse.ts";
import type { FormatOutcome } from "./engine.ts";

/** Most violation lines listed before the rest is counted only. */
export const MAX_VIOLATION_LINES = 200;
/** Cap of the whole text of one result. */
export const MAX_OUTPUT_CHARS = 60_000;
const MAX_NOTES_PER_FILE = 10;

/** Which backend, config and dialect produced a result: `sqlfluff 1.4.5, house style, dialect snowflake`. */
export type RunLabel = string;

/** `a.sql:3:5 L010 Keywords must be lower case.` (no file prefix for inline SQL). */
export function violationLine(name: string, v: Violation): string {
  return `${name ? `${name}:` : ""}${v.line}:${v.column} ${v.code} ${v.message}`;
}

/** The lint result: a count summary, the sorted violations (capped), and the run label. */
export function renderLint(results: { name: string; violations: Violation[] }[], label: RunLabel): string {
  const all = results.flatMap((r) => r.violations.map((v) => ({ name: r.name, v })));
  const fileWord = results.length === 1 ? "file" : "files";
  const scope = results.length === 1 && !results[0].name ? "" : ` in ${results.length} ${fileWord}`;
  if (!all.length) return `clean: no violations${scope} (${label})`;
  const counts = new Map<string, number>();
  for (const { v } of all) counts.set(v.code, (counts.get(v.code) ?? 0) + 1);
  const byCode = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([code, n]) => (n > 1 ? `${code} ×${n}` : code)).join(", ");
  const dirty = results.filter((r) => r.violations.length).length;
  const where = results.length > 1 ? ` in ${dirty} of ${results.length} files` : scope;
  const lines = all.slice(0, MAX_VIOLATION_LINES).map(({ name, v }) => violationLine(name, v));
  if (all.length > MAX_VIOLATION_LINES) {
    lines.push(
      `[... ${formatCount(all.length - MAX_VIOLATION_LINES)} more violations not shown; ${
        results.length > 1 ? "lint fewer files or" : "lint a smaller piece or"
      } pass rules to narrow the check]`,
    );
  }
  const summary = `${formatCount(all.length)} violation${all.length === 1 ? "" : "s"}${where} (${byCode})`;
  return capText([summary, ...lines, `(${label})`].join("\n"), MAX_OUTPUT_CHARS);
}

/** One formatted input for display: its name (empty when inline), original and outcome. */
export interface FormattedItem {
  name: string;
  original: string;
  outcome: FormatOutcome;
}

/** Formatted SQL to read (not written): the SQL itself, with notes as SQL comments after it. */
export function renderFormatted(items: FormattedItem[], label: RunLabel): string {
  const parts: string[] = [];
  for (const { name, original, outcome } of items) {
    const header = name ? `-- == ${name}: ${status(original, outcome)} ==\n` : "";
    if (outcome.parseErrors.length) {
      parts.push(`${header}${notes(name ? "" : "not formatted: ", outcome, original)}`);
    } else if (name && items.length > 1 && outcome.formatted === original) {
      parts.push(header.trimEnd());
    } else {
      const sql = outcome.formatted.endsWith("\n") ? outcome.formatted : `${outcome.formatted}\n`;
      parts.push(`${header}${sql}${notes("", outcome)}`.trimEnd());
    }
  }
  const hint = items.some((i) => i.name) ? "; files not written: pass write: true to save" : "";
  return capText(`${parts.join("\n\n")}\n\n-- ${label}${hint}`, MAX_OUTPUT_CHARS);
}

/** The write summary: one line per file with what changed, plus notes. */
export function renderWritten(
  items: (FormattedItem & { written: boolean; failure?: string })[],
  label: RunLabel,
): string {
  const lines = items.map(({ name, original, outcome, written, failure }) => {
    let line = `${name}: ${status(original, outcome)}`;
    if (written) line += `, ${changedLines(original, outcome.formatted)}`;
    if (failure) line += `, not written (${failure})`;
    const extra = notes("", outcome, original);
    return extra ? `${line}\n${extra}` : line;
  });
  const changed = items.filter((i) => i.written).length;
  const summary = `${changed} of ${items.length} file${items.length === 1 ? "" : "s"} rewritten`;
  return capText([summary, ...lines, `(${label})`].join("\n"), MAX_OUTPUT_CHARS);
}

function status(original: string, outcome: FormatOutcome): string {
  if (outcome.parseErrors.length) return "not formatted, it does not parse";
  return outcome.formatted === original ? "already formatted" : "formatted";
}

/** Parse errors or leftovers as `-- ` lines, capped per file. */
function notes(prefix: string, outcome: FormatOutcome, original = ""): string {
  const list = outcome.parseErrors.length ? outcome.parseErrors : outcome.remaining;
  if (!list.length) return "";
  // The house style uses the raw templater: Jinja/dbt SQL needs the project's own config.
  const templated = /\{\{|\{%/.test(original)
    ? " (it looks templated: set templater = jinja or dbt in a workspace .sqlfluff)"
    : "";
  const what = outcome.parseErrors.length
    ? `${prefix}the SQL does not parse, so it was left unchanged${templated}`
    : `${list.length} violation${list.length === 1 ? "" : "s"} the formatter cannot fix`;
  const shown = list.slice(0, MAX_NOTES_PER_FILE).map((v) => `--   ${violationLine("", v)}`);
  if (list.length > MAX_NOTES_PER_FILE) shown.push(`--   [... ${list.length - MAX_NOTES_PER_FILE} more]`);
  return [`-- ${what}:`, ...shown].join("\n");
}

/** `+5 -3 lines`. */
export function changedLines(before: string, after: string): string {
  let added = 0;
  let removed = 0;
  for (const part of diffLines(before, after)) {
    if (part.added) added += part.count ?? 0;
    if (part.removed) removed += part.count ?? 0;
  }
  return `+${added} -${removed} lines`;
}
