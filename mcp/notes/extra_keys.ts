/**
 * The front matter lines the server does not own (`author: bob`, comments): how the file's lines and
 * those of a front matter block copied into a replacing body combine.
 * @module
 */
import { INDENTED, KEY_LINE, LIST_ITEM, oneLine } from "./front_matter.ts";
import { emitScalar, parseFlowList, parseScalar } from "./yaml_scalar.ts";

/** A key with the lines that continue it (block list items, indented lines), or one stray line. */
interface Entry {
  key?: string;
  lines: string[];
}

/**
 * The file's extra lines with the copied block's entries laid over them: a copied key replaces the
 * file's entry of that key in place, a new key is added at the end, and a key the copy leaves out is kept,
 * since a block written from memory must not delete what a person added. Copied comments the file does
 * not already have are added; copied blank lines are dropped. Copied lines the file does not hold verbatim
 * are written again the way the server writes its own values, so a copied block cannot make the file YAML
 * that readers refuse.
 */
export function mergeExtra(kept: readonly string[], copied: readonly string[]): string[] {
  const copiedEntries = toEntries(copied);
  const pending = new Map<string, Entry>();
  for (const entry of copiedEntries) if (entry.key && !pending.has(entry.key)) pending.set(entry.key, entry);
  const out: string[] = [];
  for (const entry of toEntries(kept)) {
    const replacement = entry.key === undefined ? undefined : pending.get(entry.key);
    if (replacement) pending.delete(entry.key!);
    const same = !replacement || replacement.lines.join("\n") === entry.lines.join("\n");
    out.push(...(same ? entry.lines : rewrite(replacement)));
  }
  const keptLines = new Set(kept);
  for (const entry of copiedEntries) {
    if (entry.key !== undefined) {
      if (pending.get(entry.key) !== entry) continue;
      pending.delete(entry.key);
      out.push(...rewrite(entry));
    } else if (entry.lines[0].trim() && !keptLines.has(entry.lines[0])) {
      out.push(...rewrite(entry));
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

/** A copied entry as the server would write it: values re-quoted, a comment cleaned, stray lines dropped. */
function rewrite(entry: Entry): string[] {
  if (entry.key === undefined) {
    const comment = /^\s*#(.*)$/.exec(entry.lines[0]);
    return comment ? [`# ${oneLine(comment[1])}`.trimEnd()] : [];
  }
  const value = (raw: string, flow = false) => emitScalar(oneLine(parseScalar(raw)), { flow });
  const [first, ...rest] = entry.lines;
  const raw = (KEY_LINE.exec(first)?.[2] ?? "").trim();
  const items = rest.map((line) => LIST_ITEM.exec(line)?.[1]);
  if (!raw && rest.length && items.every((item) => item !== undefined)) {
    return [`${entry.key}:`, ...items.map((item) => `  - ${value(item!)}`)];
  }
  if (!rest.length && raw.startsWith("[") && raw.endsWith("]")) {
    return [`${entry.key}: [${parseFlowList(raw).map((item) => value(item, true)).join(", ")}]`];
  }
  const text = oneLine(parseScalar(oneLine([raw, ...rest].join(" "))));
  return [text ? `${entry.key}: ${emitScalar(text)}` : `${entry.key}:`];
}
