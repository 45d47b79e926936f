/**
 * The front matter lines the server does not own (`author: bob`, comments): how the file's lines and
 * those of a front matter block copied into a replacing body combine.
 * @module
 */
import { INDENTED, KEY_LINE, LIST_ITEM } from "./front_matter.ts";

/** A key with the lines that continue it (block list items, indented lines), or one stray line. */
interface Entry {
  key?: string;
  lines: string[];
}

/**
 * The file's extra lines with the copied block's entries laid over them: a copied key replaces the
 * file's entry of that key in place, a new key is added at the end, and a key the copy leaves out is kept,
 * since a block written from memory must not delete what a person added. Copied comments the file does
 * not already have are added; copied blank lines are dropped.
 */
export function mergeExtra(kept: readonly string[], copied: readonly string[]): string[] {
  const copiedEntries = toEntries(copied);
  const pending = new Map<string, Entry>();
  for (const entry of copiedEntries) if (entry.key && !pending.has(entry.key)) pending.set(entry.key, entry);
  const out: string[] = [];
  for (const entry of toEntries(kept)) {
    const replacement = entry.key === undefined ? undefined : pending.get(entry.key);
    if (replacement) pending.delete(entry.key!);
    out.push(...(replacement ?? entry).lines);
  }
  const keptLines = new Set(kept);
  for (const entry of copiedEntries) {
    if (entry.key !== undefined) {
      if (pending.get(entry.key) !== entry) continue;
      pending.delete(entry.key);
      out.push(...entry.lines);
    } else if (entry.lines[0].trim() && !keptLines.has(entry.lines[0])) {
      out.push(...entry.lines);
    }
  }
  return out;
}

function toEntries(lines: readonly string[]): Entry[] {
  const entries: Entry[] = [];
  for (const line of lines) {
    const key = KEY_LINE.exec(line)?.[1];
    const last = entries.at(-1);
    if (key !== undefined) entries.push({ key, lines: [line] });
    else if (last?.key !== undefined && (LIST_ITEM.test(line) || INDENTED.test(line))) last.lines.push(line);
    else entries.push({ lines: [line] });
  }
  return entries;
}
