/** Reads a byte stream to its end with one reused buffer (BYOB), so draining allocates nothing per chunk. */

/** A running drain. */
export interface Drain {
  /** Settles when the stream ended, failed or was cancelled. */
  readonly done: Promise<void>;
  /** Whether the stream has ended. */
  readonly ended: boolean;
  /** Stops reading and closes the stream. */
  cancel(): Promise<void>;
}

/** Pipes never deliver more than 64 KiB per read (the default pipe capacity), so a bigger buffer is waste. */
const BUFFER_BYTES = 64 * 1024;

/**
 * Feeds every chunk of `stream` to `onChunk`. The view passed to `onChunk` is reused by the next read:
 * copy what you keep before returning.
 */
export function drainStream(stream: ReadableStream<Uint8Array>, onChunk: (bytes: Uint8Array) => void): Drain {
  const reader = stream.getReader({ mode: "byob" });
  let ended = false;
  const done = (async () => {
    let buffer = new ArrayBuffer(BUFFER_BYTES);
    try {
      while (true) {
        const { value, done } = await reader.read(new Uint8Array(buffer));
        if (done || !value) break;
        onChunk(value);
        buffer = value.buffer as ArrayBuffer;
      }
    } catch {
      // A cancelled or broken pipe ends the drain like EOF does.
    } finally {
      ended = true;
      reader.releaseLock();
    }
  })();
  return {
    done,
    get ended() {
      return ended;
    },
    async cancel() {
      if (ended) return;
      await reader.cancel().catch(() => {});
      await done;
    },
  };
}
