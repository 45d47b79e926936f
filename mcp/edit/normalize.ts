/**
 * The three match tiers as normalised views of a text (file view or old_text), each with a segment map
 * back to the text. `whitespace` drops spaces/tabs at line ends; `unicode` also folds look-alikes per
 * grapheme cluster and removes invisible characters.
 *
 * The unicode tier's rule: fold a character only when it is the same text in another presentation —
 * composed/decomposed letters (NFC), curly quotes, dashes and the minus sign, the ellipsis, special
 * spaces, invisible characters, full-width ASCII (U+FF01-U+FF5E, the same character at CJK width) and the
 * Latin typographic ligatures (U+FB00-U+FB06, the same letters). Never fold what NFKC would fold beyond
 * that: superscripts and subscripts (`r²` is not `r2`), circled, parenthesised and other enclosed forms
 * (`①` is not `1`), fractions, roman numerals, letterlike and unit symbols (`™`, `㎏`), mathematical
 * alphanumerics, half-width katakana and the other compatibility forms: there the look-alike means
 * something else, and a match would put the model's edit where it misread the file.
 * @module
 */
import { SegmentMap } from "./segments.ts";

/** How hard a match tried. */
export type Tier = "exact" | "whitespace" | "unicode";

/** The tiers in the order they are tried. */
export const TIERS: readonly Tier[] = ["exact", "whitespace", "unicode"];

/** A normalised text; `map` is null when it is the source itself. */
export interface NormalView {
  text: string;
  map: SegmentMap | null;
}

/** One grapheme cluster (or line tail) of a line, as source and normalised output. */
export interface Piece {
  src: string;
  out: string;
}

const FOLD_CHARS =
  /[\u2018-\u201F\u2010-\u2015\u2212\uFE58\uFE63\u2026\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\u00AD\u200B-\u200D\u2060\uFEFF\uFB00-\uFB06\uFF01-\uFF5E]/g;
/** U+FB00-U+FB06 as their letters. */
const LIGATURES = ["ff", "fi", "fl", "ffi", "ffl", "st", "st"];
const NON_ASCII = /[\u0080-\uFFFF]/;
const TRAILING_BLANK = /[ \t]+$/;
/** Built at first use: loading the ICU grapheme data cost every cold start ~25 ms (docs/benchmarks.md). */
let segmenter: Intl.Segmenter | undefined;

function foldChar(char: string): string {
  const code = char.charCodeAt(0);
  if (code >= 0x2018 && code <= 0x201b) return "'";
  if (code >= 0x201c && code <= 0x201f) return '"';
  if ((code >= 0x2010 && code <= 0x2015) || code === 0x2212 || code === 0xfe58 || code === 0xfe63) return "-";
  if (code === 0x2026) return "...";
  if (code >= 0xfb00 && code <= 0xfb06) return LIGATURES[code - 0xfb00];
  if (code >= 0xff01 && code <= 0xff5e) return String.fromCharCode(code - 0xfee0);
  if (code === 0x00ad || (code >= 0x200b && code <= 0x200d) || code === 0x2060 || code === 0xfeff) return "";
  return " ";
}

/** The unicode-tier folding of a string: the look-alikes of the module rule, then NFC. */
export function foldUnicode(text: string): string {
  // NFC last: removing an invisible character can bring a letter next to its combining accent.
  return text.replace(FOLD_CHARS, foldChar).normalize("NFC");
}

/**
 * The looser folding NFKC adds (`²` → `2`, `①` → `1`): never used to match, only to find the text the
 * model most likely meant and to say which of its characters mean something else.
 */
export function foldCompatible(text: string): string {
  return foldUnicode(text.normalize("NFKC"));
}

/** Builds the normalised view of `source` for `tier`. */
export function normalize(source: string, tier: Tier): NormalView {
  if (tier === "exact") return { text: source, map: null };
  if (tier === "whitespace" || !NON_ASCII.test(source)) {
    if (!/[ \t](\n|$)/.test(source)) return { text: source, map: null };
  }
  const map = new SegmentMap();
  const out: string[] = [];
  let start = 0;
  while (start <= source.length) {
    let end = source.indexOf("\n", start);
    if (end < 0) end = source.length;
    const line = source.slice(start, end);
    if (tier === "whitespace" || !NON_ASCII.test(line)) {
      const kept = line.replace(TRAILING_BLANK, "");
      map.push(kept.length, kept.length, true);
      map.push(line.length - kept.length, 0, false);
      out.push(kept);
    } else {
      for (const piece of linePieces(line)) {
        map.push(piece.src.length, piece.out.length, piece.src === piece.out);
        out.push(piece.out);
      }
    }
    if (end < source.length) {
      map.push(1, 1, true);
      out.push("\n");
    }
    start = end + 1;
  }
  return { text: out.join(""), map };
}

/**
 * A non-ASCII line split into grapheme clusters, each folded on its own, with trailing blanks emptied.
 * If folding cluster by cluster disagrees with folding the whole line, the line is one piece.
 */
export function linePieces(line: string): Piece[] {
  let pieces: Piece[] = [];
  segmenter ??= new Intl.Segmenter("und", { granularity: "grapheme" });
  for (const { segment } of segmenter.segment(line)) {
    pieces.push({ src: segment, out: foldUnicode(segment) });
  }
  const whole = foldUnicode(line);
  if (pieces.map((p) => p.out).join("") !== whole) pieces = [{ src: line, out: whole }];
  for (let i = pieces.length - 1; i >= 0; i--) {
    const piece = pieces[i];
    if (/^[ \t]*$/.test(piece.out)) {
      piece.out = "";
      continue;
    }
    const kept = piece.out.replace(TRAILING_BLANK, "");
    if (kept !== piece.out) piece.out = kept;
    break;
  }
  return pieces;
}

/** Pieces of any line for a tier, for comparing two lines (whitespace tier: kept text, then each blank). */
export function piecesOf(line: string, tier: Tier): Piece[] {
  if (tier === "exact") return [{ src: line, out: line }];
  if (tier === "whitespace") {
    const kept = line.replace(TRAILING_BLANK, "");
    const pieces = [{ src: kept, out: kept }];
    for (const blank of line.slice(kept.length)) pieces.push({ src: blank, out: "" });
    return pieces;
  }
  return linePieces(line);
}
