/**
 * A bounded log of a process's output: the first bytes and a rolling window of the last bytes, kept as
 * one byte sequence tagged by stream in arrival order, addressed by absolute byte offsets (cursors).
 * Memory stays at most `headBytes + tailBytes` however much the process prints.
 * @module
 */

/** Which pipe a byte came from. */
export type StreamName = "stdout" | "stderr";

/** Limits of an {@link OutputLog}. */
export interface OutputLogOptions {
  /** Bytes kept from the start. Default 64 KiB. */
  headBytes?: number;
  /** Bytes kept from the end. Default 1 MiB. */
  tailBytes?: number;
}

/** What a read returns. */
export interface LogSlice {
  /** Bytes per stream in the range read, in arrival order within each stream. */
  stdout: Uint8Array;
  stderr: Uint8Array;
  /** Bytes between the cursor and the first returned byte that are no longer kept. */
  dropped: number;
  /** The offset the read began at, after skipping dropped bytes. */
  from: number;
  /** Cursor after the last byte returned. */
  next: number;
  /** The stream of the last byte returned. */
  last?: StreamName;
}

interface Segment {
  stream: StreamName;
  start: number;
  end: number;
}

const INITIAL_TAIL = 16 * 1024;

/** The bounded output of one process; `append` copies, so callers may reuse their buffers. */
export class OutputLog {
  readonly headBytes: number;
  readonly tailBytes: number;
  #head: Uint8Array;
  #tail = new Uint8Array(0);
  #total = 0;
  #segments: Segment[] = [];
  #pruneAt = 64;

  constructor(options: OutputLogOptions = {}) {
    this.headBytes = options.headBytes ?? 64 * 1024;
    this.tailBytes = options.tailBytes ?? 1024 * 1024;
    this.#head = new Uint8Array(Math.min(this.headBytes, 4096));
  }

  /** Bytes ever appended: the cursor of the end. */
  get total(): number {
    return this.#total;
  }

  /** First offset still kept after the head (bytes before it and past the head are dropped). */
  get tailStart(): number {
    return Math.max(this.headBytes, this.#total - this.tailBytes);
  }

  /** Bytes no longer kept. */
  get dropped(): number {
    return Math.max(0, this.#total - this.headBytes - this.tailBytes);
  }

  /** Adds a chunk that arrived on `stream`. */
  append(stream: StreamName, bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    const start = this.#total;
    let offset = 0;
    if (start < this.headBytes) {
      const n = Math.min(bytes.length, this.headBytes - start);
      this.#ensureHead(start + n);
      this.#head.set(bytes.subarray(0, n), start);
      offset = n;
    }
    if (offset < bytes.length) this.#writeTail(start + offset, bytes.subarray(offset));
    this.#total = start + bytes.length;
    const last = this.#segments.at(-1);
    if (last && last.stream === stream && last.end === start) last.end = this.#total;
    else this.#segments.push({ stream, start, end: this.#total });
    this.#pruneSegments();
  }

  /** The kept bytes from `since` up to at most `maxBytes` later (default: to the end). */
  read(since: number, maxBytes = Infinity): LogSlice {
    let from = Math.max(0, Math.min(since, this.#total));
    let dropped = 0;
    if (from >= this.headBytes && from < this.tailStart) {
      dropped = this.tailStart - from;
      from = this.tailStart;
    }
    const limit = Math.min(this.#total, from + maxBytes);
    // A read that starts in the head may cross the dropped middle: it stops at the end of the head.
    const end = from < this.headBytes && limit > this.headBytes && this.dropped > 0 ? this.headBytes : limit;
    const parts: Record<StreamName, Uint8Array[]> = { stdout: [], stderr: [] };
    let last: StreamName | undefined;
    for (const segment of this.#segments) {
      const a = Math.max(segment.start, from);
      const b = Math.min(segment.end, end);
      if (a >= b) continue;
      parts[segment.stream].push(this.#bytes(a, b));
      last = segment.stream;
    }
    return { stdout: concat(parts.stdout), stderr: concat(parts.stderr), dropped, from, next: end, last };
  }

  /**
   * The offset just after the first newline in the kept bytes [from, from + maxScan), or -1 if none. A
   * `from` in the dropped middle starts at the kept tail; a scan from the head stops where the head ends.
   */
  lineStartAfter(from: number, maxScan = 64 * 1024): number {
    const start = from >= this.headBytes && from < this.tailStart ? this.tailStart : Math.max(0, from);
    let end = Math.min(this.#total, start + maxScan);
    if (start < this.headBytes && end > this.headBytes && this.dropped > 0) end = this.headBytes;
    if (start >= end) return -1;
    const index = this.#bytes(start, end).indexOf(10);
    return index === -1 ? -1 : start + index + 1;
  }

  /** The offset just after the last newline in the kept bytes from `from` to `until` (default: the end), or -1. */
  lastLineEnd(from: number, until = Infinity): number {
    const end = Math.min(this.#total, until);
    const regions: [number, number][] = [
      [Math.max(from, this.tailStart), end],
      [from, Math.min(this.headBytes, end)],
    ];
    for (const [start, end] of regions) {
      // Backwards in chunks: the newline is usually near the end, so most calls copy one chunk.
      for (let b = end; b > start; b -= 64 * 1024) {
        const a = Math.max(start, b - 64 * 1024);
        const index = this.#bytes(a, b).lastIndexOf(10);
        if (index !== -1) return a + index + 1;
      }
    }
    return -1;
  }

  /** Both streams' kept bytes in [a, b) in arrival order; `a` moves up to where b's kept region starts. */
  peek(a: number, b: number): Uint8Array {
    const end = Math.min(b, this.#total);
    let start = Math.max(0, a);
    if (end > this.headBytes && this.dropped > 0) start = Math.max(start, this.tailStart);
    return start < end ? this.#bytes(start, end) : new Uint8Array(0);
  }

  #ensureHead(size: number): void {
    if (size <= this.#head.length) return;
    const grown = new Uint8Array(Math.min(this.headBytes, Math.max(size, this.#head.length * 2)));
    grown.set(this.#head);
    this.#head = grown;
  }

  /** Writes bytes at absolute offset `at` (≥ headBytes) into the ring; ring position = (at - head) % size. */
  #writeTail(at: number, bytes: Uint8Array): void {
    const used = at + bytes.length - this.headBytes;
    // Grow while nothing has wrapped yet: positions stay valid because offset - head < old size.
    if (this.#tail.length < this.tailBytes && used > this.#tail.length) {
      const size = Math.min(this.tailBytes, Math.max(used, INITIAL_TAIL, this.#tail.length * 2));
      const grown = new Uint8Array(size);
      grown.set(this.#tail);
      this.#tail = grown;
    }
    const size = this.#tail.length;
    let chunk = bytes;
    let position = at - this.headBytes;
    if (chunk.length > size) {
      position += chunk.length - size;
      chunk = chunk.subarray(chunk.length - size);
    }
    const ring = position % size;
    const first = Math.min(chunk.length, size - ring);
    this.#tail.set(chunk.subarray(0, first), ring);
    if (first < chunk.length) this.#tail.set(chunk.subarray(first), 0);
  }

  /** A copy of the kept bytes in [a, b), which lies wholly in the head or wholly in the tail. */
  #bytes(a: number, b: number): Uint8Array {
    if (b <= this.headBytes) return this.#head.slice(a, b);
    const out = new Uint8Array(b - a);
    let written = 0;
    if (a < this.headBytes) {
      out.set(this.#head.subarray(a, this.headBytes));
      written = this.headBytes - a;
      a = this.headBytes;
    }
    const size = this.#tail.length;
    let ring = (a - this.headBytes) % size;
    while (written < out.length) {
      const n = Math.min(out.length - written, size - ring);
      out.set(this.#tail.subarray(ring, ring + n), written);
      written += n;
      ring = 0;
    }
    return out;
  }

  /** Forgets segments that lie wholly in the dropped middle. */
  #pruneSegments(): void {
    // Amortised: a filter pass only after the list doubled, so tiny alternating writes stay linear.
    if (this.dropped === 0 || this.#segments.length < this.#pruneAt) return;
    const tailStart = this.tailStart;
    this.#segments = this.#segments.filter((s) => s.start < this.headBytes || s.end > tailStart);
    this.#pruneAt = Math.max(64, this.#segments.length * 2);
  }
}

/** Bytes at the end of `bytes` that start a UTF-8 character not yet complete (0 to 3). */
export function incompleteUtf8Tail(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const byte = bytes[bytes.length - back];
    if ((byte & 0xc0) === 0x80) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? back : 0;
  }
  return 0;
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
