/**
 * Pages a complete, buffered result set: files in ripgrep's `--sort path` order, then `offset`/`limit` and
 * the character budget applied exactly as the streaming collector applies them to a sorted run, so both
 * ways of answering give the same pages.
 * @module
 */
import type { GrepMode, Page, ShownFile } from "./collect.ts";
import type { ShownLine } from "./shown.ts";

/** How the buffered set is paged. */
export interface SliceOptions {
  mode: GrepMode;
  offset: number;
  limit: number;
  pageChars: number;
  /** Context lines asked for. */
  context: number;
  /** The path arguments ripgrep searched, in order: it lists their results one argument after another. */
  paths?: string[];
}

/** The page of `buffered` (whose files hold every unit) selected by `options`. */
export function slicePage(buffered: Page, options: SliceOptions): Page {
  const argument = argumentOf(options.paths ?? ["."]);
  const sorted = [...buffered.files].sort((a, b) =>
    argument(a.path) - argument(b.path) || comparePaths(a.path, b.path)
  );
  let limitEnd = options.offset + options.limit;
  let index = 0;
  let shown = 0;
  let chars = 0;
  const files: ShownFile[] = [];
  for (const file of sorted) {
    if (index >= limitEnd) break;
    if (index + file.units <= options.offset) {
      index += file.units;
      continue;
    }
    if (options.mode !== "lines") {
      files.push(file);
      shown++;
      index++;
      continue;
    }
    const byUnit = groupByUnit(file.lines, file.units);
    const lines: ShownLine[] = [];
    for (let unit = 0; unit < file.units; unit++) {
      const at = index + unit;
      if (at < options.offset) continue;
      if (at >= limitEnd) break;
      const unitLines = at === options.offset && unit > 0
        ? [...borrowedContext(byUnit[unit - 1], byUnit[unit], options), ...byUnit[unit]]
        : byUnit[unit];
      // Decided as the stream decides: on the text up to the match itself, trailing context added after.
      const lastMatch = unitLines.findLastIndex((l) => l.kind === ":");
      const cost = (list: ShownLine[]) => list.reduce((sum, l) => sum + l.text.length + 8, 0);
      const decisive = cost(unitLines.slice(0, lastMatch + 1)) + (lines.length ? 0 : 80);
      // The first unit always shows, however long; later ones end the page once the budget is spent.
      if (at > options.offset && chars + decisive > options.pageChars) {
        limitEnd = at;
        break;
      }
      lines.push(...unitLines);
      chars += cost(unitLines);
      shown++;
    }
    if (lines.length) files.push({ ...file, lines });
    index += file.units;
  }
  const more = buffered.units > limitEnd || (buffered.units === limitEnd && !buffered.complete);
  return { ...buffered, files, shown, more };
}

/**
 * A page that starts mid-file shows its first match with full before-context, as a streamed page does:
 * the previous match's trailing context lines that fall in the window are borrowed.
 */
function borrowedContext(
  previous: ShownLine[],
  current: ShownLine[],
  { context }: { context: number },
): ShownLine[] {
  const matchLine = current.find((l) => l.kind === ":")?.lineNumber ?? 0;
  const previousEnd = previous.findLast((l) => l.kind === ":")?.lineNumber ?? 0;
  const firstOwn = current[0]?.lineNumber ?? matchLine;
  return previous.filter((l) =>
    l.kind === "-" && l.lineNumber > previousEnd && l.lineNumber >= matchLine - context &&
    l.lineNumber < firstOwn
  );
}

function groupByUnit(lines: ShownLine[], units: number): ShownLine[][] {
  const groups: ShownLine[][] = Array.from({ length: units }, () => []);
  for (const line of lines) groups[line.unit]?.push(line);
  return groups;
}

/** Which of ripgrep's path arguments a result path came from (`.` takes the relative ones). */
function argumentOf(paths: string[]): (path: string) => number {
  return (path) => {
    const index = paths.findIndex((arg) =>
      arg === "." ? !isAbsolute(path) : path === arg || path.startsWith(arg.endsWith("/") ? arg : `${arg}/`)
    );
    return index < 0 ? paths.length : index;
  };
}

/** `/x` or `C:/x`: ripgrep prints results under an absolute argument absolutely. */
function isAbsolute(path: string): boolean {
  return path.startsWith("/") || /^[A-Za-z]:\//.test(path);
}

/** Path order as ripgrep's `--sort path` gives it: component by component, each by its UTF-8 bytes. */
export function comparePaths(a: string, b: string): number {
  const left = a.split("/");
  const right = b.split("/");
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    if (left[i] !== right[i]) return compareUtf8(left[i], right[i]);
  }
  return left.length - right.length;
}

/**
 * UTF-8 byte order, which is code point order. JavaScript's `<` compares UTF-16 units and puts a surrogate
 * pair (😀, 0xD83D…) before U+E000–U+FFFF (ａ, 0xFF41), where bytes put it after.
 */
function compareUtf8(a: string, b: string): number {
  const left = a[Symbol.iterator]();
  const right = b[Symbol.iterator]();
  while (true) {
    const x = left.next();
    const y = right.next();
    if (x.done || y.done) return (x.done ? 0 : 1) - (y.done ? 0 : 1);
    const diff = x.value.codePointAt(0)! - y.value.codePointAt(0)!;
    if (diff !== 0) return diff;
  }
}
