/**
 * Sparse line indexes of big files: where some lines start (every 1,024 lines or 256 KB, whichever comes
 * first), learnt while scanning, so the next page of a 2 GB log starts near its first line instead of at
 * byte 0. Held per server in a small LRU.
 * @module
 */

/** Most lines between two checkpoints. */
export const CHECKPOINT_LINES = 1024;
/** Most bytes between two checkpoints (the fast counting path records one per read chunk). */
export const CHECKPOINT_BYTES = 256 * 1024;

/** What a file looked like when its index was built; any change drops the index. */
export interface FileIdentity {
  size: number;
  mtimeMs: number;
  ino: number | null;
}

/** A scan's starting point: the first byte of line `line`. */
export interface Checkpoint {
  line: number;
  byte: number;
}

/** The checkpoints of one file, dense from line 1 up to the last one. */
export interface LineIndex {
  identity: FileIdentity;
  /** Sorted by line; the first is line 1 at byte 0. */
  checkpoints: Checkpoint[];
  /** The file's line count once a scan reached its end. */
  totalLines?: number;
}

/** A fresh index that knows only that line 1 starts at byte 0. */
export function newLineIndex(identity: FileIdentity): LineIndex {
  return { identity, checkpoints: [{ line: 1, byte: 0 }] };
}

/** The nearest known checkpoint at or before `line`. */
export function checkpointBefore(index: LineIndex, line: number): Checkpoint {
  const points = index.checkpoints;
  let low = 0;
  let high = points.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (points[middle].line <= line) low = middle;
    else high = middle - 1;
  }
  return points[low];
}

/**
 * Records that line `line` starts at `byte`, when that extends the index far enough past its last
 * checkpoint. Scans start at a checkpoint and move forward, so the index stays dense.
 */
export function recordLineStart(index: LineIndex, line: number, byte: number): void {
  const last = index.checkpoints[index.checkpoints.length - 1];
  if (line - last.line >= CHECKPOINT_LINES || (line > last.line && byte - last.byte >= CHECKPOINT_BYTES)) {
    index.checkpoints.push({ line, byte });
  }
}

/** A small LRU of line indexes keyed by real path. */
export class LineIndexCache {
  readonly #entries = new Map<string, LineIndex>();
  constructor(readonly capacity = 16) {}

  /** The index of `path` if the file is unchanged, else a fresh one (which replaces the stale one). */
  get(path: string, identity: FileIdentity): LineIndex {
    const known = this.#entries.get(path);
    this.#entries.delete(path);
    const index = known && sameFile(known.identity, identity) ? known : newLineIndex(identity);
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
