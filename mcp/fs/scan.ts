/**
 * One streaming pass over an open file: skips to a line, collects a page of lines (each capped), and
 * optionally goes on to the end to count lines, line endings and the SHA-256. Memory stays bounded by the
 * chunk size plus the page, whatever the file's size or line lengths.
 * @module
 */
import { type Checkpoint, type LineIndex, recordLineStart } from "./line_index.ts";
import { leaseNewlineCounter } from "./newline_count.ts";
import { LineCollector } from "./line_collector.ts";

/** What to collect. */
export interface ScanOptions {
  /** First line to collect (1-based). */
  offset: number;
  /** Most lines to collect. */
  limit: number;
  /** Output budget in characters for the collected lines (numbering included); at least one line is kept. */
  maxChars: number;
  /** Lines longer than this many characters are cut. */
  maxLineChars: number;
  /** Where the scan starts; byte 0 / line 1 unless an index knows better. */
  start?: Checkpoint;
  /** Over budget, drop the earliest lines instead of the latest (reading the end of a file). */
  keepLast?: boolean;
  /** Read on to the end of the file after the page (line count, endings, hash). */
  toEnd?: boolean;
  /** Compute the SHA-256 of the whole file; needs `start` at byte 0 and `toEnd`. */
  hash?: boolean;
  /** Checkpoints learnt on the way are recorded here. */
  index?: LineIndex;
  signal?: AbortSignal;
  chunkSize?: number;
  /** Count skipped lines with WASM SIMD when available (default); false forces the `indexOf` loop. */
  simd?: boolean;
  /** Lines end at every CR instead of LF (a CR-only file, see `crOnlyFile`). */
  crOnly?: boolean;
}

/** One collected line. */
export interface ScannedLine {
  number: number;
  text: string;
  /** The line was cut at `maxLineChars`. */
  cut?: boolean;
}

/** What a scan found. */
export interface ScanResult {
  lines: ScannedLine[];
  /** Why collecting stopped: `limit` lines, the output budget, or the end of the file. */
  stop: "limit" | "budget" | "end";
  /** The line count, when the scan reached the end of the file. */
  totalLines?: number;
  /** Line terminators seen (`crlf` is counted apart from bare `lf`). */
  endings: { lf: number; crlf: number; cr: boolean };
  /** Whether the file ends with a newline (known when the scan reached the end). */
  finalNewline?: boolean;
  /** Whether more lines follow the last collected line. */
  more: boolean;
  sha256?: string;
  /** Some collected line held bytes that are not valid UTF-8 (shown as U+FFFD). */
  invalidUtf8: boolean;
  /** With `keepLast`: earlier lines of the range were dropped to fit the budget. */
  trimmedFront?: boolean;
  /** How many of the returned lines were cut at `maxLineChars`. */
  cutLines: number;
}

const LF = 10;
const CR = 13;

/** Scans `file` (already open) as the options ask; the file's own position is moved. */
export async function scanLines(file: Deno.FsFile, options: ScanOptions): Promise<ScanResult> {
  // A CR-only file breaks lines at CR, as the edit server reads it; it has no LF and no CRLF to count.
  const NL = options.crOnly ? CR : LF;
  const countEndings = !options.crOnly;
  const start = options.start ?? { line: 1, byte: 0 };
  // node:crypto is imported at first use: loading it cost a cold start tens of milliseconds.
  const hasher = options.hash && start.byte === 0
    ? (await import("node:crypto")).createHash("sha256")
    : undefined;
  const maxLineBytes = options.maxLineChars * 4 + 4;
  using counter = leaseNewlineCounter(options.chunkSize ?? 256 * 1024, { simd: options.simd });
  const buffer = counter.buffer;
  const endLine = options.offset + options.limit;
  const result: ScanResult = {
    lines: [],
    stop: "end",
    endings: { lf: 0, crlf: 0, cr: false },
    more: false,
    invalidUtf8: false,
    cutLines: 0,
  };
  let line = start.line;
  let pos = start.byte;
  let collecting = line >= options.offset;
  let chars = 0;
  let previousByte = -1;
  let lastByte = -1;
  let current = new LineCollector(maxLineBytes);
  let done = false;
  let lf = 0;
  let crlf = 0;
  const index = options.index;
  /** Decodes the collected line and adds it within the budget; false when collecting is over. */
  const keep = (number: number, collector: LineCollector): boolean => {
    const notes = { invalidUtf8: false, cutLines: 0 };
    const text = collector.finish(number, options.maxLineChars, notes);
    if (notes.invalidUtf8) result.invalidUtf8 = true;
    const cost = text.length + 8;
    if (options.keepLast) {
      while (result.lines.length > 0 && chars + cost > options.maxChars) {
        chars -= result.lines.shift()!.text.length + 8;
        result.trimmedFront = true;
      }
    } else if (result.lines.length > 0 && chars + cost > options.maxChars) {
      result.stop = "budget";
      return false;
    }
    chars += cost;
    result.lines.push(notes.cutLines ? { number, text, cut: true } : { number, text });
    if (number + 1 >= endLine) {
      result.stop = "limit";
      return false;
    }
    return true;
  };
  await file.seek(pos, Deno.SeekMode.Start);
  while (!done) {
    options.signal?.throwIfAborted();
    const read = await file.read(buffer);
    if (read === null) break;
    const chunk = buffer.subarray(0, read);
    hasher?.update(chunk);
    const crs = counter.count(0, read, CR);
    if (crs) result.endings.cr = true;
    let p = 0;
    while (p < read) {
      if (!collecting) {
        // The hot path over skipped and trailing lines: count them, nothing else.
        const startAt = result.stop === "end" ? options.offset : Number.MAX_SAFE_INTEGER;
        const first = chunk.indexOf(NL, p);
        if (first < 0) break;
        if (index) recordLineStart(index, line + 1, pos + first + 1);
        // Without CRs every newline is a bare LF, so a whole chunk can be counted at once.
        if (crs === 0 || !countEndings) {
          const newlines = counter.count(p, read, NL);
          if (line + newlines < startAt) {
            line += newlines;
            if (countEndings) lf += newlines;
            break;
          }
        }
        let nl: number;
        while ((nl = chunk.indexOf(NL, p)) >= 0) {
          if (countEndings) {
            if ((nl > 0 ? chunk[nl - 1] : previousByte) === CR) crlf++;
            else lf++;
          }
          line++;
          p = nl + 1;
          if (index) recordLineStart(index, line, pos + p);
          if (line >= startAt) break;
        }
        if (nl < 0) break;
        collecting = true;
        continue;
      }
      const nl = chunk.indexOf(NL, p);
      current.add(chunk.subarray(p, nl < 0 ? read : nl));
      if (nl < 0) break;
      if (countEndings) {
        if ((nl > 0 ? chunk[nl - 1] : previousByte) === CR) crlf++;
        else lf++;
      }
      collecting = keep(line, current);
      current = new LineCollector(maxLineBytes);
      line++;
      p = nl + 1;
      if (index) recordLineStart(index, line, pos + p);
      if (!collecting && !options.toEnd) {
        result.more = pos + p < (await file.stat()).size;
        if (!result.more) result.totalLines = line - 1;
        done = true;
        break;
      }
    }
    previousByte = chunk[read - 1];
    lastByte = previousByte;
    pos += read;
  }
  result.endings.lf = lf;
  result.endings.crlf = crlf;
  if (!done) {
    // The end of the file: a last line without a newline still counts.
    const partial = lastByte !== -1 && lastByte !== NL;
    if (partial && collecting && result.stop === "end") {
      keep(line, current);
    }
    result.totalLines = partial ? line : line - 1;
    result.finalNewline = !partial;
    const lastShown = result.lines.at(-1)?.number ?? options.offset - 1;
    result.more = lastShown < result.totalLines;
    if (options.index) options.index.totalLines = result.totalLines;
    if (hasher) result.sha256 = hasher.digest("hex");
  }
  result.cutLines = result.lines.filter((l) => l.cut).length;
  return result;
}

/** The number of lines of `file` (read from where it stands to its end), as {@link scanLines} counts them. */
export async function countFileLines(
  file: Deno.FsFile,
  crOnly: boolean,
  signal?: AbortSignal,
): Promise<number> {
  const scan = await scanLines(file, {
    offset: Number.MAX_SAFE_INTEGER,
    limit: 0,
    maxChars: 0,
    maxLineChars: 0,
    toEnd: true,
    crOnly,
    signal,
  });
  // A scan to the end always counts the whole file.
  return scan.totalLines!;
}

/**
 * The line count {@link scanLines} gives for a whole file already in memory, CR-only files (as
 * {@link crOnlyFile} tells them) counted by CR: a last line without a newline counts, an empty file has 0.
 */
export function countLines(bytes: Uint8Array): number {
  if (bytes.length === 0) return 0;
  const nl = bytes.includes(CR) && !bytes.includes(LF) ? CR : LF;
  let count = 0;
  for (let at = bytes.indexOf(nl); at >= 0; at = bytes.indexOf(nl, at + 1)) count++;
  return bytes[bytes.length - 1] === nl ? count : count + 1;
}

/**
 * Whether `file` breaks its lines with CR alone: it has a CR in `head` and no LF anywhere (the edit server's
 * rule). Only a file whose head has no LF is read further, and only until its first LF.
 */
export async function crOnlyFile(file: Deno.FsFile, head: Uint8Array): Promise<boolean> {
  if (!head.includes(CR) || head.includes(LF)) return false;
  await file.seek(0, Deno.SeekMode.Start);
  const buffer = new Uint8Array(256 * 1024);
  while (true) {
    const read = await file.read(buffer);
    if (read === null) return true;
    if (buffer.subarray(0, read).includes(LF)) return false;
  }
}
