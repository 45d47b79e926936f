/**
 * Sparse line indexes of big files: the byte offset of every 1,024th line, learnt while scanning, so the
 * next page of a 2 GB log starts near its first line instead of at byte 0. Held per server in a small LRU.
 * @module
 */

/** Lines between two checkpoints. */
export const CHECKPOINT_LINES = 1024;

/** What a file looked like when its index was built; any change drops the index. */
export interface FileIdentity {
  size: number;
  mtimeMs: number;
  ino: number | null;
}

/** The checkpoints of one file. */
export interface LineIndex {
  identity: FileIdentity;
  /** `offsets[i]` is the byte offset where line `i * CHECKPOINT_LINES + 1` starts. */
  offsets: number[];
  /** The file's line count once a scan reached its end. */
  totalLines?: number;
}

/** A scan's starting point: the first byte of line `line`. */
export interface Checkpoint {
  line: number;
  byte: number;
}

/** The nearest known checkpoint at or before `line`. */
export function checkpointBefore(index: LineIndex, line: number): Checkpoint {
  const slot = Math.min(Math.floor((line - 1) / CHECKPOINT_LINES), index.offsets.length - 1);
  return { line: slot * CHECKPOINT_LINES + 1, byte: index.offsets[slot] };
}

/** Records that line `line` starts at `byte`, when that extends the index by one checkpoint. */
export function recordLineStart(index: LineIndex, line: number, byte: number): void {
  if ((line - 1) % CHECKPOINT_LINES !== 0) return;
  if ((line - 1) / CHECKPOINT_LINES === index.offsets.length) index.offsets.push(byte);
}

/** A small LRU of line indexes keyed by real path. */
export class LineIndexCache {
  readonly #entries = new Map<string, LineIndex>();
  constructor(readonly capacity = 16) {}

  /** The index of `path` if the file is unchanged, else a fresh one (which replaces the stale one). */
  get(path: string, identity: FileIdentity): LineIndex {
    const known = this.#entries.get(path);
    this.#entries.delete(path);
    const index = known && sameFile(known.identity, identity) ? known : { identity, offsets: [0] };
    this.#entries.set(path, index);
    while (this.#entries.size > this.capacity) {
      this.#entries.delete(this.#entries.keys().next().value as string);
    }
    return index;
  }
}

function sameFile(a: FileIdentity, b: FileIdentity): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;
}
