/**
 * Bytes ↔ text for editing: UTF-8 with its BOM kept aside, refusal of UTF-16/32 and binary files, and a
 * byte-preserving decoder (Python's `surrogateescape`) so undecodable bytes survive an edit unchanged.
 * @module
 */
import { editError } from "./errors.ts";

/** A file's bytes as text, plus what must be restored when it is written back. */
export interface DecodedText {
  text: string;
  /** The file started with EF BB BF (removed from `text`). */
  bom: boolean;
  /** Bytes that were not valid UTF-8, each kept as the lone surrogate U+DC80+byte. */
  invalidBytes: number;
  /** Offset in `text` of the first escaped byte, or -1. */
  firstInvalidIndex: number;
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];
const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/** Which unsupported Unicode encoding a BOM announces, if any. */
export function unsupportedEncoding(bytes: Uint8Array): string | undefined {
  const [a, b, c, d] = bytes;
  if (a === 0xff && b === 0xfe && c === 0 && d === 0) return "UTF-32 LE";
  if (a === 0 && b === 0 && c === 0xfe && d === 0xff) return "UTF-32 BE";
  if (a === 0xff && b === 0xfe) return "UTF-16 LE";
  if (a === 0xfe && b === 0xff) return "UTF-16 BE";
  return undefined;
}

/** Decodes file bytes for editing; throws `unsupported_encoding` or `binary` for files we must not touch. */
export function decodeFile(bytes: Uint8Array, displayPath: string): DecodedText {
  const encoding = unsupportedEncoding(bytes);
  if (encoding) {
    throw editError(
      "unsupported_encoding",
      `Cannot edit "${displayPath}": it is ${encoding} (byte order mark at the start); only UTF-8 files can be edited`,
    );
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    throw editError(
      "binary",
      `Cannot edit "${displayPath}": it looks binary (NUL byte at offset ${nul}); only text files can be edited`,
    );
  }
  const bom = UTF8_BOM.every((byte, i) => bytes[i] === byte);
  const body = bom ? bytes.subarray(3) : bytes;
  try {
    return { text: strict.decode(body), bom, invalidBytes: 0, firstInvalidIndex: -1 };
  } catch {
    return { bom, ...decodeEscaped(body) };
  }
}

/** Encodes edited text back to bytes, restoring the BOM and every escaped byte. */
export function encodeText(text: string, options: { bom: boolean; escaped: boolean }): Uint8Array {
  const body = options.escaped ? encodeEscaped(text) : encoder.encode(text);
  if (!options.bom) return body;
  const out = new Uint8Array(body.length + 3);
  out.set(UTF8_BOM);
  out.set(body, 3);
  return out;
}

/** True when `text` holds a surrogate without its partner (such text cannot be written as UTF-8). */
export function hasLoneSurrogate(text: string): boolean {
  return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

/** Decodes UTF-8, turning each byte of an invalid sequence into U+DC80+byte. */
export function decodeEscaped(bytes: Uint8Array): Omit<DecodedText, "bom"> {
  const units = new Uint16Array(bytes.length);
  let n = 0;
  let invalidBytes = 0;
  let firstInvalidIndex = -1;
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    if (b < 0x80) {
      units[n++] = b;
      i++;
      continue;
    }
    const length = sequenceLength(bytes, i);
    if (length === 0) {
      if (firstInvalidIndex < 0) firstInvalidIndex = n;
      invalidBytes++;
      units[n++] = 0xdc00 + b;
      i++;
      continue;
    }
    let cp = length === 2 ? b & 0x1f : length === 3 ? b & 0x0f : b & 0x07;
    for (let k = 1; k < length; k++) cp = (cp << 6) | (bytes[i + k] & 0x3f);
    if (cp >= 0x10000) {
      cp -= 0x10000;
      units[n++] = 0xd800 + (cp >> 10);
      units[n++] = 0xdc00 + (cp & 0x3ff);
    } else {
      units[n++] = cp;
    }
    i += length;
  }
  let text = "";
  const CHUNK = 8192;
  for (let start = 0; start < n; start += CHUNK) {
    text += String.fromCharCode(...units.subarray(start, Math.min(n, start + CHUNK)));
  }
  return { text, invalidBytes, firstInvalidIndex };
}

/** Length of the valid UTF-8 sequence starting at `i` (lead byte ≥ 0x80), or 0 when it is invalid. */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b = bytes[i];
  const cont = (k: number, low = 0x80, high = 0xbf) => {
    const c = bytes[i + k];
    return c !== undefined && c >= low && c <= high;
  };
  if (b >= 0xc2 && b <= 0xdf) return cont(1) ? 2 : 0;
  if (b === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if (b === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
  if (b >= 0xe1 && b <= 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (b === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (b >= 0xf1 && b <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (b === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

/** UTF-8 encoding where each lone U+DC80..U+DCFF becomes the byte it stands for. */
function encodeEscaped(text: string): Uint8Array {
  const parts: Uint8Array[] = [];
  let runStart = 0;
  let total = 0;
  const flush = (end: number) => {
    if (end > runStart) {
      const part = encoder.encode(text.slice(runStart, end));
      parts.push(part);
      total += part.length;
    }
  };
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xdc80 || unit > 0xdcff) continue;
    const previous = i > 0 ? text.charCodeAt(i - 1) : 0;
    if (previous >= 0xd800 && previous <= 0xdbff) continue; // the low half of a real pair
    flush(i);
    parts.push(new Uint8Array([unit - 0xdc00]));
    total++;
    runStart = i + 1;
  }
  flush(text.length);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
