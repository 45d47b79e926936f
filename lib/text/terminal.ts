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
