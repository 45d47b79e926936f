/**
 * File names as the model sees them and gives them back. A name with a control character (a newline), with
 * bytes that are not UTF-8, or starting with `"` is shown quoted and escaped — `"a\nb.txt"`, `"nm\xff.txt"` —
 * so one name is one line and never looks like another; every tool's path argument accepts that quoted form
 * back. Bytes that are not UTF-8 are carried in strings as U+DC80-U+DCFF (Python's "surrogateescape").
 * @module
 */

const FATAL = new TextDecoder("utf-8", { fatal: true });

const NEEDS_QUOTES =
  // deno-lint-ignore no-control-regex
  /[\x00-\x1f\x7f]|^"|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** `path` unchanged when plain; else quoted with `\n`, `\t`, `\"`, `\\`, `\xHH` (a byte) and `\uHHHH`. */
export function showPath(path: string): string {
  if (!NEEDS_QUOTES.test(path)) return path;
  let out = '"';
  for (let i = 0; i < path.length; i++) {
    const code = path.charCodeAt(i);
    const next = path.charCodeAt(i + 1);
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += path[i] + path[i + 1];
      i++;
    } else if (code >= 0xdc80 && code <= 0xdcff) out += `\\x${hex(code - 0xdc00, 2)}`;
    else if (code >= 0xd800 && code <= 0xdfff) out += `\\u${hex(code, 4)}`;
    else if (ESCAPES[path[i]]) out += ESCAPES[path[i]];
    else if (code < 0x20 || code === 0x7f) out += `\\x${hex(code, 2)}`;
    else out += path[i];
  }
  return `${out}"`;
}

/**
 * A path argument as the file system name it stands for: a quoted form from {@link showPath} is decoded,
 * anything else is taken literally. Null when `arg` is not a well-formed quoted form.
 */
export function parseShownPath(arg: string): string | null {
  if (arg.length < 2 || !arg.startsWith('"') || !arg.endsWith('"')) return null;
  let out = "";
  for (let i = 1; i < arg.length - 1; i++) {
    const c = arg[i];
    if (c === '"') return null;
    if (c !== "\\") {
      out += c;
      continue;
    }
    const kind = arg[++i];
    if (kind === "x" || kind === "u") {
      const digits = arg.slice(i + 1, i + (kind === "x" ? 3 : 5));
      if (!/^[0-9a-fA-F]+$/.test(digits) || digits.length !== (kind === "x" ? 2 : 4)) return null;
      const value = parseInt(digits, 16);
      // `\xHH` above 0x7f is a raw byte, not the character U+00HH.
      out += String.fromCharCode(kind === "x" && value >= 0x80 ? 0xdc00 + value : value);
      i += digits.length;
    } else if (UNESCAPES[kind] !== undefined && i < arg.length - 1) out += UNESCAPES[kind];
    else return null;
  }
  return out;
}

/** The path argument `arg` names: its decoded quoted form, or `arg` itself. */
export function pathFromArgument(arg: string): string {
  return parseShownPath(arg) ?? arg;
}

/** Whether `path` holds bytes that are not UTF-8 (which Deno cannot pass to the file system). */
export function hasRawBytes(path: string): boolean {
  return /[\udc80-\udcff]/.test(path.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ""));
}

/** A file name's bytes as a string: UTF-8 decoded, each byte that is not UTF-8 kept as U+DC80-U+DCFF. */
export function decodeFileName(bytes: Uint8Array): string {
  try {
    return FATAL.decode(bytes);
  } catch {
    // Slow path, file names are short: decode sequence by sequence.
  }
  let out = "";
  let i = 0;
  while (i < bytes.length) {
    const length = sequenceLength(bytes[i]);
    let decoded: string | null = null;
    if (length > 0 && i + length <= bytes.length) {
      try {
        decoded = FATAL.decode(bytes.subarray(i, i + length));
      } catch {
        decoded = null;
      }
    }
    if (decoded === null) {
      out += String.fromCharCode(0xdc00 + bytes[i]);
      i++;
    } else {
      out += decoded;
      i += length;
    }
  }
  return out;
}

function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

const ESCAPES: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t", '"': '\\"', "\\": "\\\\" };
const UNESCAPES: Record<string, string> = { n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\" };

function hex(value: number, width: number): string {
  return value.toString(16).padStart(width, "0");
}
