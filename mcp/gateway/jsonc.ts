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

/** Parses JSONC; throws `SyntaxError` (unterminated comment, or `JSON.parse`'s own message). */
export function parseJsonc(text: string): unknown {
  return JSON.parse(stripJsonc(text.startsWith("\uFEFF") ? text.slice(1) : text));
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
      let next = i + 1;
      while (next < text.length && /\s/.test(text[next])) next++;
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
