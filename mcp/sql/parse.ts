/** Reads both backends' lint JSON into one violation shape, defensively (sqlfluff 1.x mixes in text). */
import type { BackendKind } from "./backend.ts";

/** One finding, 1-based line and column. */
export interface Violation {
  line: number;
  column: number;
  /** `L010`, `CP01`; `PRS` for a parse error (sqruff reports those with a null code). */
  code: string;
  message: string;
}

/** Codes meaning the file could not be parsed or templated: it is not safe to format. */
export const PARSE_CODES: ReadonlySet<string> = new Set(["PRS", "TMP"]);

/**
 * Violations per file as the backend named it (`a.sql`, `stdin`, `<string>`), or null when stdout holds
 * no JSON of the expected shape (the caller then reports stdout and stderr as the error).
 *
 * sqruff: `{"a.sql": [{"range": {"start": {"line", "character"}}, "message", "code"}]}`.
 * sqlfluff 1.x/2.x: `[{"filepath", "violations": [{"line_no", "line_pos", "code", "description"}]}]`;
 * 3.x: the same with `start_line_no` / `start_line_pos`.
 */
export function parseLintJson(kind: BackendKind, stdout: string): Map<string, Violation[]> | null {
  const json = extractJson(stdout);
  if (json === undefined) return null;
  return kind === "sqruff" ? fromSqruff(json) : fromSqlfluff(json);
}

function fromSqruff(json: unknown): Map<string, Violation[]> | null {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return null;
  const files = new Map<string, Violation[]>();
  for (const [file, diagnostics] of Object.entries(json)) {
    if (!Array.isArray(diagnostics)) return null;
    files.set(
      file,
      diagnostics.map((d) => ({
        line: toNumber(d?.range?.start?.line),
        column: toNumber(d?.range?.start?.character),
        code: typeof d?.code === "string" && d.code ? d.code : "PRS",
        message: String(d?.message ?? ""),
      })),
    );
  }
  return files;
}

function fromSqlfluff(json: unknown): Map<string, Violation[]> | null {
  if (!Array.isArray(json)) return null;
  const files = new Map<string, Violation[]>();
  for (const record of json) {
    if (typeof record?.filepath !== "string" || !Array.isArray(record.violations)) return null;
    const violations: Violation[] = record.violations.map((v: Record<string, unknown>) => ({
      line: toNumber(v.start_line_no ?? v.line_no),
      column: toNumber(v.start_line_pos ?? v.line_pos),
      code: String(v.code ?? "PRS"),
      message: String(v.description ?? ""),
    }));
    files.set(record.filepath, [...(files.get(record.filepath) ?? []), ...violations]);
  }
  return files;
}

/** The JSON document in `stdout`: all of it, or the last line that parses (warnings may precede it). */
function extractJson(stdout: string): unknown {
  const trimmed = stdout.trim();
  if (!trimmed) return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    // sqlfluff 1.x prints warnings and errors on stdout: look for a JSON line.
  }
  const lines = trimmed.split(/\r?\n/).reverse();
  for (const line of lines) {
    if (!/^\s*[[{]/.test(line)) continue;
    try {
      return JSON.parse(line);
    } catch {
      // Not this line.
    }
  }
  return undefined;
}

function toNumber(value: unknown): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 1;
}

/** Sorts by line, column, code. */
export function sortViolations(violations: Violation[]): Violation[] {
  return [...violations].sort((a, b) =>
    a.line - b.line || a.column - b.column || a.code.localeCompare(b.code)
  );
}
