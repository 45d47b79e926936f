/**
 * A log that says each line once: the catalog is rebuilt on every tools/list_changed, and a server that
 * sends a storm of them must not repeat the same collision line each time (1,294 lines in 30 s, seen).
 * @module
 */

/** Distinct lines remembered; past them one note is written, then nothing more. */
export const ONCE_LOG_MAX_LINES = 1_000;

/** Writes each distinct line the first time it is said, up to a bounded number of distinct lines. */
export class OnceLog {
  readonly #write: (line: string) => void;
  readonly #max: number;
  readonly #said = new Set<string>();
  #full = false;

  constructor(write: (line: string) => void, max = ONCE_LOG_MAX_LINES) {
    this.#write = write;
    this.#max = max;
  }

  /** Writes `line` unless it was said before (or the bound was reached). */
  say(line: string): void {
    if (this.#full || this.#said.has(line)) return;
    if (this.#said.size >= this.#max) {
      // Memory stays bounded whatever a server keeps inventing; the note says lines are missing.
      this.#full = true;
      this.#write(`(${this.#max} distinct lines of this kind logged; further ones are not)`);
      return;
    }
    this.#said.add(line);
    this.#write(line);
  }
}
