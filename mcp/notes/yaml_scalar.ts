/**
 * YAML scalars both ways: read leniently (a person's quoting, right or wrong), written so that any YAML
 * reader, strict ones included, reads back exactly the string the server meant.
 * @module
 */

/** `[a, "b c"]` → `["a", "\"b c\""]`; a bare `a, b` is read as a list too. */
export function parseFlowList(raw: string): string[] {
  const inner = raw.startsWith("[") ? raw.slice(1, raw.endsWith("]") ? -1 : undefined) : raw;
  return inner.match(/"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^,]+/g) ?? [];
}

/** A YAML scalar as the string it denotes; quoting that does not parse is taken literally. */
export function parseScalar(raw: string): string {
  const value = raw.trim();
  const double = /^("(?:[^"\\]|\\.)*")\s*(?:#.*)?$/.exec(value);
  if (double) {
    try {
      return String(JSON.parse(double[1]));
    } catch {
      return double[1].slice(1, -1);
    }
  }
  const single = /^'((?:[^']|'')*)'\s*(?:#.*)?$/.exec(value);
  if (single) return single[1].replaceAll("''", "'");
  return value.replace(/\s+#.*$/, "");
}

const PLAIN_START = /^[^\s\-?:,[\]{}#&*!|>'"%@`]/;
// Strict readers (PyYAML) refuse C0 and C1 controls and DEL raw; YAML 1.1 reads NEL, LS and PS as line
// breaks; a BOM or a noncharacter inside a document is refused by some. All of them are escaped.
const UNPRINTABLE = /[\p{Cc}\u2028\u2029\ufeff\ufffe\uffff]/u;
const ESCAPE_IN_JSON = /[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]/g;
/** Plain scalars a YAML 1.1 or 1.2 reader would turn into a boolean, null, number or special value. */
const LOOKS_TYPED =
  /^(?:true|false|yes|no|on|off|y|n|null|~|=|<<|[-+]?(?:\.?\d[\d_:.]*(?:e[-+]?\d+)?|\.inf|\.nan|0x[\da-f_]+|0o[0-7_]+|0b[01_]+))$/i;
const TIMESTAMP = /^\d{4}-\d\d?-\d\d?(?:$|[Tt ])/;

/**
 * A plain scalar when every YAML reader reads it back as the same string, else a double-quoted one with
 * JSON's escapes (valid YAML) plus `\uXXXX` for what JSON leaves raw. `timestamp`: a date stays plain,
 * so YAML readers see `created` and `updated` as timestamps.
 */
export function emitScalar(value: string, options: { flow?: boolean; timestamp?: boolean } = {}): string {
  const text = value.toWellFormed();
  const plain = PLAIN_START.test(text) && !UNPRINTABLE.test(text) && !/[\s:]$/.test(text) &&
    !text.includes(": ") && !text.includes(" #") && !(options.flow && /[,[\]{}]/.test(text)) &&
    !LOOKS_TYPED.test(text) && (options.timestamp || !TIMESTAMP.test(text));
  if (plain) return text;
  return JSON.stringify(text).replace(
    ESCAPE_IN_JSON,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
