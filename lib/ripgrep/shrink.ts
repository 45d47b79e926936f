/**
 * Shrinks one oversized `rg --json` record while it streams in, so a 500 MB minified line never becomes a
 * 500 MB string: long strings are cut, long arrays (a match per character) are cut, and what was dropped is
 * added to the record as `"cut":{"data.lines.text":<chars dropped>, "data.submatches[]":<items dropped>}`.
 * The result is valid JSON for {@link parseEvent}, whatever the chunking of the input.
 * @module
 */

interface Frame {
  array: boolean;
  /** The last key seen, in an object. */
  key: string;
  /** In an object: the next string is a key. */
  expectKey: boolean;
  items: number;
}

/** Streams one JSON record in (`push`), then gives its shrunk text (`finish`). */
export class JsonShrinker {
  readonly #maxString: number;
  readonly #maxItems: number;
  readonly #budget: number;
  #out: string[] = [];
  #outChars = 0;
  #stack: Frame[] = [];
  #inString = false;
  #isKey = false;
  #key = "";
  /** An escape sequence split across pushes. */
  #pendingEscape = "";
  #kept = 0;
  #dropped = 0;
  /** The last escapes dropped from the current string, to keep a line's own line break. */
  #droppedTail = "";
  /** Stack depth of the array being skipped past its cut, or -1. */
  #skipDepth = -1;
  #skippedItems = 0;
  #cuts = new Map<string, number>();

  /** Output of about `maxChars` at most: strings keep a quarter of it, arrays stop at half of it. */
  constructor(maxChars: number, options: { maxItems?: number } = {}) {
    // A multiple of 4, so cut base64 (`"bytes"`) still decodes.
    this.#maxString = Math.max(16, Math.floor(maxChars / 16) * 4);
    this.#budget = Math.max(64, Math.floor(maxChars / 2));
    this.#maxItems = options.maxItems ?? 1000;
  }

  /** Takes the next piece of the record (no newline). */
  push(text: string): void {
    let i = 0;
    while (i < text.length) {
      if (this.#inString) i = this.#string(text, i);
      else i = this.#structure(text, i);
    }
  }

  /** The shrunk record. */
  finish(): string {
    let text = this.#out.join("");
    if (this.#cuts.size) {
      const at = text.lastIndexOf("}");
      if (at >= 0) text = `${text.slice(0, at)},"cut":${JSON.stringify(Object.fromEntries(this.#cuts))}}`;
    }
    return text;
  }

  #emit(text: string): void {
    if (this.#skipDepth >= 0) return;
    this.#out.push(text);
    this.#outChars += text.length;
  }

  #structure(text: string, i: number): number {
    const c = text[i];
    const top = this.#stack.at(-1);
    switch (c) {
      case '"':
        this.#inString = true;
        this.#isKey = !!top && !top.array && top.expectKey;
        this.#key = "";
        this.#kept = 0;
        this.#dropped = 0;
        this.#droppedTail = "";
        this.#emit(c);
        return i + 1;
      case "{":
      case "[":
        this.#emit(c);
        this.#stack.push({ array: c === "[", key: "", expectKey: c === "{", items: 0 });
        return i + 1;
      case "}":
      case "]":
        if (this.#skipDepth === this.#stack.length) {
          this.#skipDepth = -1;
          this.#note(`${this.#path()}[]`, this.#skippedItems);
        }
        this.#stack.pop();
        this.#emit(c);
        return i + 1;
      case ",":
        if (top?.array && this.#skipDepth < 0) {
          top.items++;
          if (top.items >= this.#maxItems || this.#outChars > this.#budget) {
            // The rest of this array is only counted.
            this.#skipDepth = this.#stack.length;
            this.#skippedItems = 1;
            return i + 1;
          }
        } else if (top?.array && this.#skipDepth === this.#stack.length) {
          this.#skippedItems++;
        }
        if (top && !top.array) top.expectKey = true;
        this.#emit(c);
        return i + 1;
      case ":":
        if (top && !top.array) top.expectKey = false;
        this.#emit(c);
        return i + 1;
      default: {
        // Numbers, literals and whitespace, up to the next structural character.
        let j = i + 1;
        while (j < text.length && !'"{}[],:'.includes(text[j])) j++;
        this.#emit(text.slice(i, j));
        return j;
      }
    }
  }

  #string(text: string, i: number): number {
    if (this.#pendingEscape) {
      // Finish an escape split across pushes: `\` then one character, or `\u` then four hex digits.
      let escape = this.#pendingEscape;
      let j = i;
      while (j < text.length && !isWholeEscape(escape)) escape += text[j++];
      if (isWholeEscape(escape)) {
        this.#pendingEscape = "";
        this.#char(escape);
      } else {
        this.#pendingEscape = escape;
      }
      return j;
    }
    STRING_STOP.lastIndex = i;
    const stop = STRING_STOP.exec(text);
    const end = stop ? stop.index : text.length;
    if (end > i) this.#chars(text.slice(i, end));
    if (!stop) return end;
    if (text[end] === '"') {
      this.#closeString();
      return end + 1;
    }
    const length = text[end + 1] === "u" ? 6 : 2;
    const escape = text.slice(end, end + length);
    if (escape.length < length) {
      this.#pendingEscape = escape;
      return text.length;
    }
    this.#char(escape);
    return end + length;
  }

  /** Plain characters of a string (no quote, no backslash). */
  #chars(part: string): void {
    if (this.#isKey && this.#key.length < 64) this.#key += part.slice(0, 64);
    const room = this.#maxString - this.#kept;
    if (part.length <= room) {
      this.#kept += part.length;
      this.#emit(part);
      return;
    }
    let keep = Math.max(0, room);
    // Never end on half a surrogate pair.
    if (keep > 0 && isHighSurrogate(part.charCodeAt(keep - 1))) keep--;
    if (keep > 0) this.#emit(part.slice(0, keep));
    this.#droppedTail = "";
    this.#kept += keep;
    this.#kept = Math.max(this.#kept, this.#maxString);
    this.#dropped += part.length - keep;
  }

  /** One escaped character (`\n`, `\u0001`): kept whole or dropped whole. */
  #char(escape: string): void {
    if (this.#isKey) this.#key += escape;
    if (this.#kept < this.#maxString) {
      this.#kept++;
      this.#emit(escape);
    } else {
      this.#dropped++;
      this.#droppedTail = (this.#droppedTail + escape).slice(-4);
    }
  }

  #closeString(): void {
    // A cut line still ends with its line break, as an uncut one does.
    const lineBreak = this.#droppedTail.match(/(?:\\r)?\\n$/)?.[0] ?? "";
    if (lineBreak) {
      this.#emit(lineBreak);
      this.#dropped -= lineBreak.length / 2;
    }
    this.#inString = false;
    this.#emit('"');
    const top = this.#stack.at(-1);
    if (this.#isKey && top) top.key = this.#key;
    if (this.#dropped > 0 && this.#skipDepth < 0) this.#note(this.#path(), this.#dropped);
  }

  /** `data.lines.text`: the keys down to the current value, arrays left out. */
  #path(): string {
    return this.#stack.filter((frame) => !frame.array && frame.key).map((frame) => frame.key).join(".");
  }

  #note(path: string, count: number): void {
    this.#cuts.set(path, (this.#cuts.get(path) ?? 0) + count);
  }
}

const STRING_STOP = /["\\]/g;

function isWholeEscape(escape: string): boolean {
  return escape.length >= 2 && escape.length === (escape[1] === "u" ? 6 : 2);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
