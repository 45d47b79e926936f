/** What a fuzzy match tolerated, so the model learns which of its characters differed from the file. */
import { piecesOf, type Tier } from "./normalize.ts";
import { describeChars } from "./chars.ts";

/** One kind of difference a match tolerated. */
export interface Tolerated {
  kind: "trailing_whitespace" | "eof_newline" | "unicode";
  /** 1-based file lines where it occurred. */
  lines: number[];
  "file_char"?: string;
  "old_text_char"?: string;
  count: number;
}

/**
 * Compares the matched file text with old_text line by line (both in view form; their lines correspond
 * one to one in the fuzzy tiers) and groups the differences.
 */
export function tolerated(
  tier: Tier,
  matched: string,
  old: string,
  options: { firstLine: number; eof: boolean },
): Tolerated[] {
  if (tier === "exact") return [];
  const trailing: number[] = [];
  const unicode = new Map<string, Tolerated>();
  const fileLines = matched.split("\n");
  const oldLines = old.split("\n");
  for (let i = 0; i < fileLines.length && i < oldLines.length; i++) {
    if (fileLines[i] === oldLines[i]) continue;
    const line = options.firstLine + i;
    for (const [fileChunk, oldChunk] of differingChunks(fileLines[i], oldLines[i], tier)) {
      if (/^[ \t]*$/.test(fileChunk + oldChunk)) {
        if (!trailing.includes(line)) trailing.push(line);
        continue;
      }
      const key = `${fileChunk}\u0000${oldChunk}`;
      const entry = unicode.get(key) ??
        { kind: "unicode", lines: [], file_char: fileChunk, old_text_char: oldChunk, count: 0 };
      entry.count++;
      if (!entry.lines.includes(line)) entry.lines.push(line);
      unicode.set(key, entry);
    }
  }
  const result: Tolerated[] = [...unicode.values()];
  if (trailing.length) result.push({ kind: "trailing_whitespace", lines: trailing, count: trailing.length });
  if (options.eof) {
    const last = options.firstLine + fileLines.length - 1;
    result.push({ kind: "eof_newline", lines: [last], count: 1 });
  }
  return result;
}

/** Walks both lines' pieces in step by normalised length and yields the source chunks that differ. */
function* differingChunks(fileLine: string, oldLine: string, tier: Tier): Generator<[string, string]> {
  const a = piecesOf(fileLine, tier);
  const b = piecesOf(oldLine, tier);
  let i = 0;
  let j = 0;
  let posA = 0;
  let posB = 0;
  let chunkA = "";
  let chunkB = "";
  while (i < a.length || j < b.length) {
    if (i < a.length && (posA <= posB || j >= b.length)) {
      chunkA += a[i].src;
      posA += a[i++].out.length;
    } else {
      chunkB += b[j].src;
      posB += b[j++].out.length;
    }
    if (posA === posB) {
      if (chunkA !== chunkB) yield* splitCommon(chunkA, chunkB);
      chunkA = "";
      chunkB = "";
    }
  }
  if (chunkA !== chunkB) yield* splitCommon(chunkA, chunkB);
}

/** Trims what two differing chunks share at both ends, so `x’` vs `x'` reports only the quote. */
function* splitCommon(a: string, b: string): Generator<[string, string]> {
  const ca = [...a];
  const cb = [...b];
  let p = 0;
  while (p < ca.length && p < cb.length && ca[p] === cb[p]) p++;
  let s = 0;
  while (s < ca.length - p && s < cb.length - p && ca[ca.length - 1 - s] === cb[cb.length - 1 - s]) s++;
  const x = ca.slice(p, ca.length - s).join("");
  const y = cb.slice(p, cb.length - s).join("");
  if (x !== y) yield [x, y];
}

/** One clause for the model saying what a fuzzy match tolerated. */
export function describeTolerated(items: Tolerated[]): string {
  const parts: string[] = [];
  const unicode = items.filter((item) => item.kind === "unicode").map((item) => {
    const times = item.count > 1 ? ` (${item.count}x)` : "";
    return `${describeChars(item.file_char ?? "")} as ${describeChars(item.old_text_char ?? "")}${times}`;
  });
  if (unicode.length) parts.push(`matched after treating ${unicode.join(", ")} in the file`);
  for (const item of items) {
    if (item.kind === "trailing_whitespace") {
      parts.push(`ignored trailing whitespace on ${lineList(item.lines)}`);
    }
    if (item.kind === "eof_newline") parts.push("old_text's final newline matched the end of the file");
  }
  return parts.join("; ");
}

/** `line 4` / `lines 4, 7, 9`. */
export function lineList(lines: number[]): string {
  const shown = lines.slice(0, 8).join(", ");
  const more = lines.length > 8 ? ` and ${lines.length - 8} more` : "";
  return `${lines.length === 1 ? "line" : "lines"} ${shown}${more}`;
}
