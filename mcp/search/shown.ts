/** Lines as the model sees them: numbered, `:` for a match and `-` for context, cut when too long. */
import { cutLine } from "./cut.ts";

/** One shown line: `:` a match, `-` context. */
export interface ShownLine {
  kind: ":" | "-";
  lineNumber: number;
  text: string;
  /** Which match of its file (0-based) the line belongs to: the match itself or its context. */
  unit: number;
}

/** Splits a (possibly multiline) event into shown lines, each cut around its part of the match. */
export function toShown(
  event: {
    kind: ShownLine["kind"];
    lineNumber: number;
    text: string;
    spans: Array<[number, number]>;
    unit: number;
    /** Characters cut off the end of `text` while reading. */
    cut?: number;
  },
  maxChars: number,
): ShownLine[] {
  const { kind, lineNumber, text, spans, unit } = event;
  const body = text.replace(/\r?\n$/, "");
  const parts = body.split("\n");
  const out: ShownLine[] = [];
  let start = 0;
  for (const [i, part] of parts.entries()) {
    const end = start + part.length;
    const local = spans
      .filter(([s, e]) => s < end + 1 && e > start)
      .map(([s, e]): [number, number] => [Math.max(0, s - start), Math.min(part.length, e - start)]);
    out.push({
      kind,
      lineNumber: lineNumber + i,
      text: cutLine(part.replace(/\r$/, ""), local, {
        maxChars,
        more: i === parts.length - 1 ? event.cut : undefined,
      }),
      unit,
    });
    start = end + 1;
  }
  return out;
}
