/** One line's bytes while a scan collects it: kept up to a cap, then only counted, then decoded and cut. */

/** What decoding tells the scan about the lines it collected. */
export interface DecodeNotes {
  /** Set when a line held bytes that are not valid UTF-8. */
  invalidUtf8: boolean;
  /** Incremented for each line cut at the character cap. */
  cutLines: number;
}

const CR = 13;
const BOM = [0xef, 0xbb, 0xbf];

/** The bytes of one line, kept up to a cap; beyond it only the characters are counted. */
export class LineCollector {
  #parts: Uint8Array[] = [];
  #kept = 0;
  #extraChars = 0;
  #lastByte = -1;
  constructor(readonly maxBytes: number) {}

  add(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.#lastByte = bytes[bytes.length - 1];
    const room = this.maxBytes - this.#kept;
    if (room > 0) {
      const keep = bytes.subarray(0, room);
      this.#parts.push(keep.slice());
      this.#kept += keep.length;
    }
    if (bytes.length > room) this.#extraChars += countChars(bytes.subarray(Math.max(0, room)));
  }

  /** Decodes the line (its trailing CR dropped), cut at `maxChars` characters with a marker. */
  finish(line: number, maxChars: number, result: DecodeNotes): string {
    let bytes = concat(this.#parts, this.#kept);
    // Line 1 starts at byte 0: a UTF-8 BOM there is a marker, not content.
    if (line === 1 && startsWithBom(bytes)) bytes = bytes.subarray(3);
    let extra = this.#extraChars;
    if (this.#lastByte === CR) {
      if (extra > 0) extra--;
      else bytes = bytes.subarray(0, bytes.length - 1);
    }
    if (extra > 0) {
      // The cap may have split a character: its lead bytes move to the counted rest, as one character.
      const split = incompleteTail(bytes);
      if (split) {
        bytes = bytes.subarray(0, bytes.length - split);
        extra++;
      }
    }
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes, { stream: extra > 0 });
    } catch {
      result.invalidUtf8 = true;
      text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes, { stream: extra > 0 });
    }
    const codePoints = extra > 0 || text.length > maxChars ? Array.from(text) : undefined;
    if (!codePoints || codePoints.length + extra <= maxChars) return text;
    result.cutLines++;
    const cut = codePoints.length + extra - maxChars;
    return `${codePoints.slice(0, maxChars).join("")}…(+${cut} chars)`;
  }
}

/** Length of a UTF-8 sequence cut short at the end of `bytes`, or 0. */
function incompleteTail(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back];
    if ((byte & 0xc0) === 0x80) continue;
    const expected = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return back < expected ? back : 0;
  }
  return 0;
}

function startsWithBom(bytes: Uint8Array): boolean {
  return bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2];
}

function concat(parts: Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** UTF-8 code points in `bytes`: every byte that is not a continuation byte starts one. */
function countChars(bytes: Uint8Array): number {
  let count = 0;
  for (let i = 0; i < bytes.length; i++) if ((bytes[i] & 0xc0) !== 0x80) count++;
  return count;
}
