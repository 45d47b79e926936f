/** The text the model reads: violations one a line, formatted SQL with its notes, write summaries. */
import { diffLines } from "diff";
import { capText } from "../../lib/text/cap.ts";
import { formatCount } from "../../lib/text/format.ts";
import type { Violation } from "./parse.ts";
import type { FormatOutcome } from "./engine.ts";
import { isUnfinished } from "./batch.ts";

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

/** The lint result: a count summary, the sorted violations (capped), files not checked, and the run label. */
export function renderLint(
  results: { name: string; violations: Violation[]; skipped?: string }[],
  label: RunLabel,
): string {
  const checked = results.filter((r) => r.skipped === undefined);
  const skipped = skippedLines(results, "not checked");
  const notChecked = skipped.length
    ? `; ${results.length - checked.length} of ${results.length} not checked`
    : "";
  const all = checked.flatMap((r) => r.violations.map((v) => ({ name: r.name, v })));
  const fileWord = checked.length === 1 ? "file" : "files";
  const scope = checked.length === 1 && !checked[0].name ? "" : ` in ${checked.length} ${fileWord}`;
  if (!all.length && !skipped.length) return `clean: no violations${scope} (${label})`;
  if (!all.length) {
    return capText(
      [`clean: no violations${scope}${notChecked}`, ...skipped, `(${label})`].join("\n"),
      MAX_OUTPUT_CHARS,
    );
  }
  const counts = new Map<string, number>();
  for (const { v } of all) counts.set(v.code, (counts.get(v.code) ?? 0) + 1);
  const byCode = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([code, n]) => (n > 1 ? `${code} ×${n}` : code)).join(", ");
  const dirty = checked.filter((r) => r.violations.length).length;
  const where = checked.length > 1 ? ` in ${dirty} of ${checked.length} files` : scope;
  const lines = all.slice(0, MAX_VIOLATION_LINES).map(({ name, v }) => violationLine(name, v));
  if (all.length > MAX_VIOLATION_LINES) {
    lines.push(
      `[... ${formatCount(all.length - MAX_VIOLATION_LINES)} more violations not shown; ${
        checked.length > 1 ? "lint fewer files or" : "lint a smaller piece or"
      } pass rules to narrow the check]`,
    );
  }
  const summary = `${formatCount(all.length)} violation${
    all.length === 1 ? "" : "s"
  }${where} (${byCode})${notChecked}`;
  return capText([summary, ...lines, ...skipped, `(${label})`].join("\n"), MAX_OUTPUT_CHARS);
}

/** `name: not checked, not UTF-8 text` per skipped input, then what to do about inputs that ran out of time. */
function skippedLines(results: { name: string; skipped?: string }[], verb: string): string[] {
  const lines = results.flatMap((r) => r.skipped === undefined ? [] : [`${r.name}: ${verb}, ${r.skipped}`]);
  const unfinished = unfinishedHint(results.map((r) => r.skipped));
  return unfinished ? [...lines, unfinished] : lines;
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
    if (outcome.skipped !== undefined) {
      parts.push(header.trimEnd());
    } else if (outcome.parseErrors.length) {
      parts.push(`${header}${notes(name ? "" : "not formatted: ", outcome, original)}`);
    } else if (name && items.length > 1 && outcome.formatted === original) {
      parts.push(header.trimEnd());
    } else {
      const sql = outcome.formatted.endsWith("\n") ? outcome.formatted : `${outcome.formatted}\n`;
      parts.push(`${header}${sql}${notes("", outcome)}`.trimEnd());
    }
  }
  const unfinished = unfinishedHint(items.map((i) => i.outcome.skipped));
  if (unfinished) parts.push(`-- ${unfinished}`);
  return capText(`${parts.join("\n\n")}\n\n-- ${label}${saveHint(items)}`, MAX_OUTPUT_CHARS);
}

/**
 * What write: true would do with these files, after the run label: offered only for files it would change; a
 * file that did not parse or was not formatted would be left as is, and the hint says so rather than invite a
 * write that saves nothing. Empty for inline SQL.
 */
function saveHint(items: FormattedItem[]): string {
  const files = items.filter((i) => i.name);
  if (!files.length) return "";
  const left = ({ outcome }: FormattedItem) =>
    outcome.skipped !== undefined || outcome.parseErrors.length > 0;
  const stuck = files.filter(left);
  const changed = files.filter((i) => !left(i) && i.outcome.formatted !== i.original);
  const why = stuck.length === 1
    ? `${stuck[0].name} ${stuck[0].outcome.skipped === undefined ? "does not parse" : "was not formatted"}`
    : `${stuck.length} files were not formatted`;
  if (!changed.length) return `; nothing to save: no file would change${stuck.length ? ` (${why})` : ""}`;
  const save = changed.length === 1
    ? `${changed[0].name} not written: pass write: true to save it`
    : `${changed.length} formatted files not written: pass write: true to save them`;
  return `; ${save}${stuck.length ? ` (${why} and would be left as is)` : ""}`;
}

/** The write summary: one line per file with what changed, plus notes. */
export function renderWritten(
  items: (FormattedItem & { written: boolean; failure?: string; sameAs?: string })[],
  label: RunLabel,
): string {
  const lines = items.map(({ name, original, outcome, written, failure, sameAs }) => {
    if (sameAs !== undefined) return `${name}: same file as ${sameAs} (a hard link)`;
    let line = `${name}: ${status(original, outcome)}`;
    if (written) line += `, ${changedLines(original, outcome.formatted)}`;
    if (failure) line += `, not written (${failure})`;
    const extra = notes("", outcome, original);
    return extra ? `${line}\n${extra}` : line;
  });
  const changed = items.filter((i) => i.written).length;
  const summary = `${changed} of ${items.length} file${items.length === 1 ? "" : "s"} rewritten`;
  const unfinished = unfinishedHint(items.map((i) => i.outcome.skipped));
  return capText(
    [summary, ...lines, ...(unfinished ? [unfinished] : []), `(${label})`].join("\n"),
    MAX_OUTPUT_CHARS,
  );
}

/** What to do about inputs that ran out of time, or "" when none did. */
function unfinishedHint(reasons: (string | undefined)[]): string {
  const late = reasons.filter((reason) => reason !== undefined && isUnfinished(reason));
  return late.length
    ? `[${late.length} file${late.length === 1 ? "" : "s"} not finished in time: pass ${
      late.length === 1 ? "it" : "them"
    } again in a smaller batch, or raise SQL_MCP_TIMEOUT_MS]`
    : "";
}

function status(original: string, outcome: FormatOutcome): string {
  if (outcome.skipped !== undefined) return `not formatted, ${outcome.skipped}`;
  if (outcome.parseErrors.length) return "not formatted, it does not parse";
  return outcome.formatted === original ? "already formatted" : "formatted";
}

/** Parse errors or leftovers as `-- ` lines, capped per file. */
function notes(prefix: string, outcome: FormatOutcome, original = ""): string {
  const list = outcome.parseErrors.length ? outcome.parseErrors : outcome.remaining;
  if (!list.length) return "";
  // Only the raw and placeholder templaters run here: jinja and dbt can run workspace code.
  const templated = /\{\{|\{%/.test(original)
    ? " (it looks templated: Jinja and dbt templates are not rendered here, since rendering can run code)"
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
