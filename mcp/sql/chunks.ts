/**
 * Splits a batch into chunks, one backend process each, and runs a few of them at once. A chunk is the
 * unit that finishes or times out: smaller chunks lose less to a timeout and spread over the cores,
 * bigger ones pay the backend's start-up less often. sqlfluff starts in ~1 s and lints ~1 KB a second, so
 * its chunks are small; sqruff starts in ~0.06 s and lints ~40 KB a second on one thread, so its chunks
 * only split the batch over the cores (200 small models: 2 processes, not 13).
 * @module
 */
import type { BackendKind } from "./backend.ts";

/** How big one backend's chunks get. */
export interface ChunkLimits {
  /** Most files in one chunk. */
  files: number;
  /** A chunk holds about this much SQL at most (a bigger file is a chunk on its own). */
  maxBytes: number;
  /** Below this, splitting over the cores costs more start-ups than it saves. */
  minBytes: number;
}

/** The limits per backend kind. */
export const CHUNK_LIMITS: Record<BackendKind, ChunkLimits> = {
  sqlfluff: { files: 16, maxBytes: 8 * 1024, minBytes: 2 * 1024 },
  sqruff: { files: 100, maxBytes: 256 * 1024, minBytes: 16 * 1024 },
};
/** Most files in one sqlfluff chunk. */
export const MAX_CHUNK_FILES: number = CHUNK_LIMITS.sqlfluff.files;

/** How many backend processes run at once by default: one per core. */
export function defaultConcurrency(): number {
  return Math.max(1, navigator.hardwareConcurrency || 1);
}

/**
 * The inputs' indexes grouped into chunks, in order: up to `limits.files` files and about an even share of
 * the bytes per worker (between `minBytes` and `maxBytes`), so that small batches still use every core.
 */
export function planChunks(
  sizes: readonly number[],
  workers: number,
  limits: ChunkLimits = CHUNK_LIMITS.sqlfluff,
): number[][] {
  const total = sizes.reduce((sum, size) => sum + size, 0);
  const share = Math.ceil(total / Math.max(1, workers));
  const limit = Math.min(limits.maxBytes, Math.max(limits.minBytes, share));
  const chunks: number[][] = [];
  let current: number[] = [];
  let bytes = 0;
  sizes.forEach((size, i) => {
    if (current.length && (current.length >= limits.files || bytes + size > limit)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(i);
    bytes += size;
  });
  if (current.length) chunks.push(current);
  return chunks;
}

/** Runs `work(0..count-1)` with at most `concurrency` running at once; resolves when all have ended. */
export async function runPool(
  count: number,
  concurrency: number,
  work: (index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(count, Math.max(1, concurrency)) }, worker));
}
