/**
 * JSON with comments (`//`, `/* *\/`) and trailing commas, as editors write config files. The stripper
 * blanks comments and trailing commas with spaces (keeping newlines), so `JSON.parse` positions and the
 * line/column in its messages still point into the original text.
 * @module
 */

/** `text` with comments and trailing commas blanked out; marker characters inside strings are kept. */
export function stripJsonc(text: string): string {
  return blankTrailingCommas(blankComments(text));
}

/**
 * Parses JSONC; throws `SyntaxError` for an unterminated comment, a key given twice in one object (JSON.parse
 * would silently keep the last: a copied entry left unrenamed would hide the first), or `JSON.parse`'s own.
 */
export function parseJsonc(text: string): unknown {
  const stripped = stripJsonc(text.startsWith("\uFEFF") ? text.slice(1) : text);
  const value = JSON.parse(stripped);
  refuseDuplicateKeys(stripped);
  return value;
}

/** Expects valid JSON: a string followed by `:` inside an object is a key. */
function refuseDuplicateKeys(json: string): void {
  const keysOfOpen: (Set<string> | null)[] = [];
  let i = 0;
  while (i < json.length) {
    const char = json[i];
    if (char === '"') {
      const end = stringEnd(json, i);
      const keys = keysOfOpen.at(-1);
      if (keys && json[skipSpace(json, end)] === ":") {
        const key: string = JSON.parse(json.slice(i, end));
        if (keys.has(key)) {
          throw new SyntaxError(`Duplicate key ${JSON.stringify(key)} at line ${lineOf(json, i)}`);
        }
        keys.add(key);
      }
      i = end;
      continue;
    }
    if (char === "{") keysOfOpen.push(new Set());
    else if (char === "[") keysOfOpen.push(null);
    else if (char === "}" || char === "]") keysOfOpen.pop();
    i++;
  }
}

function blankComments(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const char = text[i];
    if (char === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end;
    } else if (char === "/" && text[i + 1] === "/") {
      let end = text.indexOf("\n", i);
      if (end === -1) end = text.length;
      out += blank(text.slice(i, end));
      i = end;
    } else if (char === "/" && text[i + 1] === "*") {
      const close = text.indexOf("*/", i + 2);
      if (close === -1) throw new SyntaxError(`Unterminated /* comment at line ${lineOf(text, i)}`);
      out += blank(text.slice(i, close + 2));
      i = close + 2;
    } else {
      out += char;
      i++;
    }
  }
  return out;
}

/** Expects comments already blanked: a comma followed only by whitespace and then `}` or `]` goes. */
function blankTrailingCommas(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const char = text[i];
    if (char === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end;
      continue;
    }
    if (char === ",") {
      const next = skipSpace(text, i + 1);
      if (text[next] === "}" || text[next] === "]") {
        out += " ";
        i++;
        continue;
      }
    }
    out += char;
    i++;
  }
  return out;
}

/** Index of the first non-whitespace character at or after `start` (blanked comments are whitespace). */
function skipSpace(text: string, start: number): number {
  let i = start;
  while (i < text.length && /\s/.test(text[i])) i++;
  return i;
}

/** Index just past the string opening at `start`; an unterminated string runs to the end (JSON.parse says so). */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    if (text[i] === "\\") i += 2;
    else if (text[i] === '"') return i + 1;
    // A raw newline ends a broken string here, so a `//` on the next line is still a comment.
    else if (text[i] === "\n") return i;
    else i++;
  }
  return text.length;
}

function blank(comment: string): string {
  return comment.replace(/[^\n\r]/g, " ");
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split("\n").length;
}
