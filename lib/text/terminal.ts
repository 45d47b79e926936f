/** Turns terminal output into what a reader of the final screen would see: no escape codes, no redrawn lines. */

// CSI (incl. private parameters such as `?25l`), OSC (ended by BEL or ST), 8-bit CSI, and other ESC sequences.
const ESCAPES =
  // deno-lint-ignore no-control-regex -- matching control characters is the point
  /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x9b[0-?]*[ -/]*[@-~]|\x1b[()#][0-9A-Za-z]|\x1b[@-Z\\-_=>78]/g;

/**
 * Strips ANSI escape sequences and collapses carriage-return redraws (progress bars) to each line's final
 * frame; CRLF becomes LF.
 */
export function cleanTerminalText(text: string): string {
  const plain = text.replace(ESCAPES, "").replace(/\r+\n/g, "\n");
  if (!plain.includes("\r")) return plain;
  return plain.split("\n").map(lastFrame).join("\n");
}

/** `"10%\r50%\r100%"` → `"100%"`; a trailing `\r` keeps the frame before it. */
function lastFrame(line: string): string {
  if (!line.includes("\r")) return line;
  const frames = line.split("\r");
  for (let i = frames.length - 1; i >= 0; i--) if (frames[i] !== "") return frames[i];
  return "";
}

/**
 * Bytes at the end of `bytes` that begin an escape sequence not complete yet (0 if none), looking at the last
 * `window` bytes: a page that ends there would leak a raw ESC and start the next page with its remains.
 */
export function unfinishedEscapeTail(bytes: Uint8Array, window = 256): number {
  for (let i = Math.max(0, bytes.length - window); i < bytes.length; i++) {
    if (bytes[i] !== 0x1b) continue;
    const end = escapeEnd(bytes, i);
    if (end === -1) return bytes.length - i;
    i = end - 1;
  }
  return 0;
}

/** The index just past the escape sequence that starts at `at`, or -1 when `bytes` ends inside it. */
function escapeEnd(bytes: Uint8Array, at: number): number {
  const kind = bytes[at + 1];
  if (kind === undefined) return -1;
  if (kind === 0x5b) { // CSI: parameters and intermediates (0x20-0x3f), then a final byte (0x40-0x7e)
    for (let i = at + 2; i < bytes.length; i++) if (bytes[i] < 0x20 || bytes[i] > 0x3f) return i + 1;
    return -1;
  }
  if (kind === 0x5d) { // OSC: ends with BEL or ESC \
    for (let i = at + 2; i < bytes.length; i++) {
      if (bytes[i] === 0x07) return i + 1;
      if (bytes[i] === 0x1b) return i + 1 < bytes.length ? i + 2 : -1;
    }
    return -1;
  }
  if (kind === 0x28 || kind === 0x29 || kind === 0x23) return at + 2 < bytes.length ? at + 3 : -1; // ( ) #
  return at + 2;
}
