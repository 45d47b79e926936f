/**
 * The no_match hint for old_text that differs from the file only in characters the unicode tier never
 * folds because they mean something else (`r²` vs `r2`, `①` vs `1`): name them, so the model copies them.
 * @module
 */
import { foldCompatible, foldUnicode } from "./normalize.ts";

const MAX_SHOWN = 3;

/** The clause for the closest block `window` (starting at line `start`), or null when it differs otherwise. */
export function meaningHint(window: string[], oldLines: string[], start: number): string | null {
  if (window.length === 0 || window.length !== oldLines.length) return null;
  const shown: string[] = [];
  for (const [i, fileLine] of window.entries()) {
    const file = trimEnd(foldUnicode(fileLine));
    const old = trimEnd(foldUnicode(oldLines[i]));
    if (file === old) continue;
    if (trimEnd(foldCompatible(fileLine)) !== trimEnd(foldCompatible(oldLines[i]))) return null;
    if (shown.length < MAX_SHOWN) {
      const [a, b] = firstDifference(file, old);
      shown.push(`line ${start + i}: the file has "${a}" (${codePoints(a)}) where old_text has "${b}"`);
    }
  }
  if (!shown.length) return null;
  return `it differs only in characters that look alike but mean something else (${
    shown.join("; ")
  }); those are never treated as equal, so copy them from the file`;
}

/** The first file character whose compatibility form old_text spells out, or the differing middles. */
function firstDifference(file: string, old: string): [string, string] {
  const a = [...file];
  const b = [...old];
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  const spelled = foldCompatible(a[p] ?? "");
  if (spelled !== "" && b.slice(p).join("").startsWith(spelled)) return [a[p], spelled];
  let s = 0;
  while (s < a.length - p && s < b.length - p && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  return [a.slice(p, a.length - s).join(""), b.slice(p, b.length - s).join("")];
}

function codePoints(text: string): string {
  return [...text].map((char) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`)
    .join(" ");
}

function trimEnd(line: string): string {
  return line.replace(/[ \t]+$/, "");
}
