/**
 * The `rg --json` event stream as typed events: one JSON object a line (begin, match, context, end,
 * summary). Paths and lines that are not UTF-8 arrive base64-encoded: lines are decoded lossily, paths keep
 * their odd bytes as U+DC80-U+DCFF (lib/workspace/path_text.ts); submatch
 * offsets are converted from UTF-8 bytes to string indices.
 * @module
 */
import { decodeFileName } from "../workspace/path_text.ts";

/** ripgrep's counters for one file (`end`) or the whole run (`summary`). */
export interface RipgrepStats {
  /** Files searched. */
  searches: number;
  searchesWithMatch: number;
  /** Lines that matched. */
  matchedLines: number;
  /** Individual matches (a line may hold several). */
  matches: number;
  bytesSearched: number;
}

/** A matched or context line (several lines in multiline mode), with match spans as string indices. */
export interface RipgrepLine {
  type: "match" | "context";
  path: string;
  /** The line(s) with their line break. */
  text: string;
  /** 1-based number of the first line. */
  lineNumber: number;
  /** `[start, end)` of each match within `text`. */
  spans: Array<[number, number]>;
  /** Characters cut off the end of `text` while reading an oversized record (see shrink.ts). */
  cut?: number;
}

/** One event of `rg --json`. */
export type RipgrepEvent =
  | { type: "begin"; path: string }
  | RipgrepLine
  | { type: "end"; path: string; binaryOffset: number | null; stats: RipgrepStats }
  | { type: "summary"; stats: RipgrepStats; elapsedMs: number };

/** The event type of a JSON line without parsing it: ripgrep writes `{"type":"…"` first. */
export function sniffType(line: string): RipgrepEvent["type"] | null {
  if (line.startsWith('{"type":"match"')) return "match";
  if (line.startsWith('{"type":"context"')) return "context";
  if (line.startsWith('{"type":"begin"')) return "begin";
  if (line.startsWith('{"type":"end"')) return "end";
  // The summary is written with sorted keys: `{"data":…,"type":"summary"}`.
  if (line.endsWith('"type":"summary"}')) return "summary";
  return null;
}

/** Parses one line of `rg --json` output; null for blank or unknown lines. */
export function parseEvent(line: string): RipgrepEvent | null {
  if (!line.trim()) return null;
  let raw: { type?: string; data?: RawData; cut?: Record<string, number> };
  try {
    raw = JSON.parse(line);
  } catch {
    return null;
  }
  const data = raw.data;
  if (!data) return null;
  switch (raw.type) {
    case "begin":
      return { type: "begin", path: decodeData(data.path) };
    case "match":
    case "context": {
      const bytes = data.lines?.bytes !== undefined ? fromBase64(data.lines.bytes) : undefined;
      const text = bytes ? lossy(bytes) : data.lines?.text ?? "";
      const event: RipgrepLine = {
        type: raw.type,
        path: decodeData(data.path),
        text,
        lineNumber: data.line_number ?? 0,
        spans: (data.submatches ?? []).map((s) => toStringSpan(text, bytes, s.start, s.end)),
      };
      const cut = raw.cut?.["data.lines.text"] ?? Math.floor((raw.cut?.["data.lines.bytes"] ?? 0) * 3 / 4);
      if (cut) event.cut = cut;
      return event;
    }
    case "end":
      return {
        type: "end",
        path: decodeData(data.path),
        binaryOffset: data.binary_offset ?? null,
        stats: toStats(data.stats),
      };
    case "summary": {
      const elapsed = data.elapsed_total;
      return {
        type: "summary",
        stats: toStats(data.stats),
        elapsedMs: elapsed ? elapsed.secs * 1000 + elapsed.nanos / 1e6 : 0,
      };
    }
    default:
      return null;
  }
}

/** Parses a stream of `rg --json` lines into events, skipping lines that are not events. */
export async function* parseEvents(lines: AsyncIterable<string>): AsyncGenerator<RipgrepEvent> {
  for await (const line of lines) {
    const event = parseEvent(line);
    if (event) yield event;
  }
}

interface RawText {
  text?: string;
  bytes?: string;
}

interface RawStats {
  searches?: number;
  "searches_with_match"?: number;
  "matched_lines"?: number;
  matches?: number;
  "bytes_searched"?: number;
}

interface RawData {
  path?: RawText;
  lines?: RawText;
  "line_number"?: number | null;
  submatches?: Array<{ start: number; end: number }>;
  "binary_offset"?: number | null;
  stats?: RawStats;
  "elapsed_total"?: { secs: number; nanos: number };
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

function decodeData(value: RawText | undefined): string {
  if (!value) return "";
  if (value.text !== undefined) return value.text;
  // Only paths come here: their bytes that are not UTF-8 are kept (path_text.ts), not replaced.
  return value.bytes !== undefined ? decodeFileName(fromBase64(value.bytes)) : "";
}

function lossy(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

function fromBase64(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

// deno-lint-ignore no-control-regex
const ASCII = /^[\x00-\x7f]*$/;

/** ripgrep counts offsets in UTF-8 bytes; JavaScript strings index UTF-16 units. */
function toStringSpan(
  text: string,
  bytes: Uint8Array | undefined,
  start: number,
  end: number,
): [number, number] {
  if (!bytes && ASCII.test(text)) return [start, end];
  const utf8 = bytes ?? encoder.encode(text);
  const before = lossy(utf8.subarray(0, start)).length;
  return [before, before + lossy(utf8.subarray(start, end)).length];
}

function toStats(raw: RawStats | undefined): RipgrepStats {
  return {
    searches: raw?.searches ?? 0,
    searchesWithMatch: raw?.searches_with_match ?? 0,
    matchedLines: raw?.matched_lines ?? 0,
    matches: raw?.matches ?? 0,
    bytesSearched: raw?.bytes_searched ?? 0,
  };
}
