/**
 * Splits a batch into chunks, one backend process each, and runs a few of them at once. A chunk is the
 * unit that finishes or times out: smaller chunks lose less to a timeout and spread over the cores,
 * bigger ones pay the backend's start-up (~1 s for sqlfluff) less often.
 * @module
 */

/** Most files in one chunk. */
export const MAX_CHUNK_FILES = 16;
/** A chunk holds about this much SQL at most (a bigger file is a chunk on its own). */
export const MAX_CHUNK_BYTES = 8 * 1024;
/** Below this, splitting over the cores costs more start-ups than it saves. */
const MIN_CHUNK_BYTES = 2 * 1024;

/** How many backend processes run at once by default: one per core. */
export function defaultConcurrency(): number {
  return Math.max(1, navigator.hardwareConcurrency || 1);
}

/**
 * The inputs' indexes grouped into chunks, in order: up to {@link MAX_CHUNK_FILES} files and about an even
 * share of the bytes per worker (between 2 and 8 KB), so that small batches still use every core.
 */
export function planChunks(sizes: readonly number[], workers: number): number[][] {
  const total = sizes.reduce((sum, size) => sum + size, 0);
  const limit = Math.min(MAX_CHUNK_BYTES, Math.max(MIN_CHUNK_BYTES, Math.ceil(total / Math.max(1, workers))));
  const chunks: number[][] = [];
  let current: number[] = [];
  let bytes = 0;
  sizes.forEach((size, i) => {
    if (current.length && (current.length >= MAX_CHUNK_FILES || bytes + size > limit)) {
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
