/**
 * Newline-delimited messages out of a byte stream, for both ends of a stdio connection (line_transport.ts
 * serves, child_transport.ts is a client). Chunks are kept until their line ends and joined once, so a
 * message costs linear time in its size (the SDK's ReadBuffer joins its buffer on every chunk: quadratic);
 * a line over the limit is never held whole: only its size, head and tail are kept, for its id.
 * @module
 */

/** Bytes kept of each end of an overlong line: enough for a JSON-RPC id before or after the payload. */
export const EDGE_BYTES = 4_096;

const NEWLINE = 0x0a;
const EMPTY = new Uint8Array(0);

/** Where lines go. */
export interface LineSink {
  /** One line without its newline, at most the limit. */
  line(bytes: Uint8Array): void;
  /** A line over the limit: its size, and its first and last {@link EDGE_BYTES} bytes. */
  oversized(bytes: number, head: Uint8Array, tail: Uint8Array): void;
}

/** Reads `reader` until it ends (or `stopped()`), handing each line to `sink`. */
export async function readLines(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  maxBytes: number,
  sink: LineSink,
  stopped: () => boolean = () => false,
): Promise<void> {
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let head: Uint8Array | undefined; // set once the line passed the limit: its start, for its id
  let tail: Uint8Array = EMPTY;
  while (!stopped()) {
    const { value, done } = await reader.read();
    if (done) return;
    let chunk = value;
    let newline: number;
    while ((newline = chunk.indexOf(NEWLINE)) >= 0) {
      const end = chunk.subarray(0, newline);
      const bytes = pendingBytes + end.length;
      if (head === undefined && bytes <= maxBytes) {
        sink.line(concat([...pending, end], bytes));
      } else {
        const parts = head === undefined ? [...pending, end] : [tail, end];
        sink.oversized(bytes, head ?? headOf(parts), tailOf(parts));
      }
      pending = [];
      pendingBytes = 0;
      head = undefined;
      tail = EMPTY;
      chunk = chunk.subarray(newline + 1);
    }
    if (chunk.length === 0) continue;
    pendingBytes += chunk.length;
    if (head !== undefined) {
      tail = tailOf([tail, chunk]);
      continue;
    }
    pending.push(chunk);
    if (pendingBytes > maxBytes) {
      head = headOf(pending);
      tail = tailOf(pending);
      pending = [];
    }
  }
}

/** The id of a JSON-RPC message cut short: found at its start, or at its end (where the SDK writes it). */
export function idOfOversized(head: Uint8Array, tail: Uint8Array): string | number | undefined {
  const decoder = new TextDecoder();
  const atStart = decoder.decode(head).match(/^\s*\{[^{]*?"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)/)?.[1];
  const atEnd = decoder.decode(tail).match(/"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)\s*\}\s*\r?$/)?.[1];
  const id = atStart ?? atEnd;
  return id === undefined ? undefined : JSON.parse(id);
}

/** Joins `parts` (of `length` bytes in all) into one array. */
export function concat(parts: readonly Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function headOf(parts: readonly Uint8Array[]): Uint8Array {
  const out: Uint8Array[] = [];
  let length = 0;
  for (const part of parts) {
    if (length >= EDGE_BYTES) break;
    const piece = part.subarray(0, EDGE_BYTES - length);
    out.push(piece);
    length += piece.length;
  }
  return concat(out, length).slice();
}

function tailOf(parts: readonly Uint8Array[]): Uint8Array {
  const out: Uint8Array[] = [];
  let length = 0;
  for (let i = parts.length - 1; i >= 0 && length < EDGE_BYTES; i--) {
    const part = parts[i];
    const piece = part.subarray(Math.max(0, part.length - (EDGE_BYTES - length)));
    out.unshift(piece);
    length += piece.length;
  }
  return concat(out, length).slice();
}
