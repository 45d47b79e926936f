/** Naming invisible and look-alike characters so the model can see differences it cannot see. */

const NAMES: Record<number, string> = {
  0x09: "TAB",
  0x20: "SPACE",
  0xa0: "NO-BREAK SPACE",
  0xad: "SOFT HYPHEN",
  0x200b: "ZERO WIDTH SPACE",
  0x200c: "ZERO WIDTH NON-JOINER",
  0x200d: "ZERO WIDTH JOINER",
  0x2010: "HYPHEN",
  0x2011: "NON-BREAKING HYPHEN",
  0x2012: "FIGURE DASH",
  0x2013: "EN DASH",
  0x2014: "EM DASH",
  0x2015: "HORIZONTAL BAR",
  0x2018: "LEFT SINGLE QUOTATION MARK",
  0x2019: "RIGHT SINGLE QUOTATION MARK",
  0x201a: "SINGLE LOW-9 QUOTATION MARK",
  0x201c: "LEFT DOUBLE QUOTATION MARK",
  0x201d: "RIGHT DOUBLE QUOTATION MARK",
  0x201e: "DOUBLE LOW-9 QUOTATION MARK",
  0x2026: "HORIZONTAL ELLIPSIS",
  0x202f: "NARROW NO-BREAK SPACE",
  0x2060: "WORD JOINER",
  0x2212: "MINUS SIGN",
  0x3000: "IDEOGRAPHIC SPACE",
  0xfeff: "ZERO WIDTH NO-BREAK SPACE",
  0xfb01: "LATIN SMALL LIGATURE FI",
  0xfb02: "LATIN SMALL LIGATURE FL",
  0x0301: "COMBINING ACUTE ACCENT",
};

/** `'` for printable ASCII, `U+2019 RIGHT SINGLE QUOTATION MARK` otherwise; several joined by spaces. */
export function describeChars(chunk: string): string {
  if (chunk === "") return "nothing";
  if (/^[\x21-\x7e]+$/.test(chunk)) return chunk;
  const chars = [...chunk];
  if (chars.length > 4) return JSON.stringify(chunk);
  return chars.map((char) => {
    const code = char.codePointAt(0)!;
    if (code > 0x20 && code < 0x7f) return char;
    const hex = `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
    return NAMES[code] ? `${hex} ${NAMES[code]}` : hex;
  }).join(" ");
}

/** A line with invisible or look-alike characters escaped: `\t`, `\u00A0`, `·` for trailing spaces. */
export function escapeInvisible(line: string): string {
  const body = line.replace(/ +$/, (spaces) => "·".repeat(spaces.length));
  return body.replace(
    /[\t\p{Cf}\p{Zs}\p{M}\u2010-\u2015\u2018-\u201F\u2212\uFB00-\uFB06\uDC80-\uDCFF]/gu,
    (char) => {
      if (char === " ") return " ";
      if (char === "\t") return "\\t";
      if (isEscapedByte(char.charCodeAt(0))) return byteEscape(char);
      return `\\u${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
    },
  );
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text any client can encode: each byte that is not UTF-8 (carried as a lone U+DC80-U+DCFF, see decode.ts)
 * as `\xE9`, as lib/workspace/path_text.ts shows such bytes in names; any other lone surrogate as U+FFFD.
 * A lone surrogate in a result makes strict clients (Python's json + str.encode) fail on the whole answer.
 */
export function showBytes(text: string): string {
  if (text.isWellFormed()) return text;
  return text.replace(
    LONE_SURROGATE,
    (unit) => isEscapedByte(unit.charCodeAt(0)) ? byteEscape(unit) : "\uFFFD",
  );
}

function isEscapedByte(unit: number): boolean {
  return unit >= 0xdc80 && unit <= 0xdcff;
}

function byteEscape(unit: string): string {
  return `\\x${(unit.charCodeAt(0) - 0xdc00).toString(16).toUpperCase()}`;
}
