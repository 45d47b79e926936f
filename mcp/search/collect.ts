/**
 * Turns the `rg --json` line stream (or, in count mode, ripgrep's per-file counts) into one page of results: skips `offset` units (matching lines, or
 * files in files/count mode), keeps `limit` of them with their context, counts on for a bounded horizon,
 * and tells the caller when ripgrep can be stopped. A file's lines are held until its `end` event, which
 * says whether it was binary: binary files are dropped and only counted.
 * @module
 */
import { parseEvent, type RipgrepLine, sniffType } from "../../lib/ripgrep/json.ts";
import { type ShownLine, toShown } from "./shown.ts";

export type { ShownLine };

/** What is paged: matching lines with their text, matching files, or per-file counts. */
export type GrepMode = "lines" | "files" | "count";

/** How the page is cut. */
export interface PageOptions {
  mode: GrepMode;
  offset: number;
  limit: number;
  /** Context lines asked for (for pairing context with shown matches). */
  context: number;
  /** Units counted past the page before giving up on an exact total. */
  countHorizon: number;
  /** Character budget of the shown lines: the page ends early rather than flood the model. */
  pageChars: number;
  /** Stop as soon as the page is known to overflow (a first, unsorted pass). */
  stopOnOverflow?: boolean;
  /** Longest shown line; longer ones are cut around the match. */
  maxLineChars: number;
  /** Files whose path fails this are skipped as if ripgrep had not searched them (the narrowing globs). */
  keep?: (path: string) => boolean;
}

/** One file of the page. */
export interface ShownFile {
  path: string;
  /** Matching lines in the file. */
  count: number;
  /** Units in the file: its matches in lines mode (a multiline match is one), else 1. */
  units: number;
  /** Lines shown (lines mode only). */
  lines: ShownLine[];
}

/** The page and the totals known so far. */
export interface Page {
  files: ShownFile[];
  /** Units shown on this page. */
  shown: number;
  /** Units counted (exact when `complete`, else a lower bound): matches in lines mode, else files. */
  units: number;
  matchedLines: number;
  matchedFiles: number;
  /** Binary files that matched and were skipped. */
  binaryFiles: number;
  /** ripgrep finished: totals are exact. */
  complete: boolean;
  /** Files searched, when ripgrep finished. */
  searched: number | null;
  /** More units exist past this page. */
  more: boolean;
}

interface FileState {
  path: string;
  matches: number;
  shown: ShownLine[];
  shownUnits: number;
  chars: number;
  pendingContext: ShownLine[];
  lastMatchShown: boolean;
  lastMatchEnd: number;
  lastShownUnit: number;
  limitCut: boolean;
}

/** Feeds `rg --json` lines in; `feed` returns false once ripgrep may be stopped. */
export class PageCollector {
  readonly #options: PageOptions;
  #file: FileState | null = null;
  #units = 0;
  #matchedLines = 0;
  #matchedFiles = 0;
  #binaryFiles = 0;
  #chars = 0;
  #limitEnd: number;
  #files: ShownFile[] = [];
  #shown = 0;
  #complete = false;
  #searched: number | null = null;
  #overflow = false;

  constructor(options: PageOptions) {
    this.#options = options;
    this.#limitEnd = options.offset + options.limit;
  }

  /** True once the page is known to be full and more units exist. */
  get overflowed(): boolean {
    return this.#overflow;
  }

  /** Takes one JSON line; false when enough is known and ripgrep should stop. */
  feed(line: string): boolean {
    const type = sniffType(line);
    if (type === "match" || type === "context") return this.#line(type, line);
    const event = parseEvent(line);
    if (!event) return true;
    if (event.type === "begin") {
      this.#file = this.#options.keep?.(event.path) === false ? null : newFile(event.path);
    } else if (event.type === "end") return this.#end(event.binaryOffset, event.stats.matchedLines);
    else if (event.type === "summary") {
      this.#complete = true;
      this.#searched = event.stats.searches;
    }
    return true;
  }

  /** Takes one file's count of matching lines (`rg --count`, count mode); false when ripgrep may stop. */
  count(path: string, lines: number): boolean {
    this.#file = this.#options.keep?.(path) === false ? null : newFile(path);
    return this.#end(null, lines);
  }

  /** ripgrep ran to its end (count mode, where it does not say how many files it searched): totals are exact. */
  finish(searched: number | null): void {
    this.#complete = true;
    this.#searched = searched;
  }

  /** The page as it stands; a file cut off mid-stream counts as text. */
  page(): Page {
    if (this.#file) this.#commit(this.#file, this.#file.matches);
    this.#file = null;
    const more = this.#units > this.#limitEnd || (this.#units === this.#limitEnd && !this.#complete);
    return {
      files: this.#files,
      shown: this.#shown,
      units: this.#units,
      matchedLines: this.#matchedLines,
      matchedFiles: this.#matchedFiles,
      binaryFiles: this.#binaryFiles,
      complete: this.#complete,
      searched: this.#searched,
      more,
    };
  }

  #line(type: "match" | "context", raw: string): boolean {
    const file = this.#file;
    if (!file) return true;
    const index = this.#units + file.matches;
    if (type === "match") file.matches++;
    if (this.#options.mode !== "lines") return this.#keepGoing(file);
    const needed = type === "match"
      ? index >= this.#options.offset && index < this.#limitEnd
      : (file.lastMatchShown || index < this.#limitEnd) && this.#options.context > 0;
    if (!needed) {
      if (type === "match") {
        file.lastMatchShown = false;
        file.pendingContext = [];
      }
      return this.#keepGoing(file);
    }
    const event = parseEvent(raw) as RipgrepLine | null;
    if (!event) return true;
    if (type === "context") this.#context(file, event);
    else this.#match(file, event);
    return this.#keepGoing(file);
  }

  #context(file: FileState, event: RipgrepLine): void {
    const unit = file.lastShownUnit;
    const line = toShown({ ...event, kind: "-", spans: [], unit }, this.#options.maxLineChars)[0];
    if (file.lastMatchShown && event.lineNumber <= file.lastMatchEnd + this.#options.context) {
      this.#show(file, line);
      return;
    }
    file.pendingContext.push(line);
    if (file.pendingContext.length > this.#options.context) file.pendingContext.shift();
  }

  #match(file: FileState, event: RipgrepLine): void {
    // The match was already counted in `file.matches`.
    const index = this.#units + file.matches - 1;
    const unit = index - this.#units;
    const lines = toShown({ ...event, kind: ":", unit }, this.#options.maxLineChars);
    const before = file.pendingContext
      .filter((l) => l.lineNumber >= event.lineNumber - this.#options.context)
      .map((l) => ({ ...l, unit }));
    const cost = [...before, ...lines].reduce(
      (sum, l) => sum + l.text.length + 8,
      file.shown.length ? 0 : 80,
    );
    // The first unit always shows, however long; later ones end the page once the budget is spent.
    if (index > this.#options.offset && this.#chars + cost > this.#options.pageChars) {
      this.#limitEnd = index;
      file.limitCut = true;
      file.lastMatchShown = false;
      file.pendingContext = [];
      return;
    }
    for (const line of [...before, ...lines]) this.#show(file, line);
    file.shownUnits++;
    file.lastMatchShown = true;
    file.lastShownUnit = unit;
    file.lastMatchEnd = event.lineNumber + lines.length - 1;
    file.pendingContext = [];
  }

  #show(file: FileState, line: ShownLine): void {
    file.shown.push(line);
    const cost = line.text.length + 8;
    file.chars += cost;
    this.#chars += cost;
  }

  #keepGoing(file: FileState): boolean {
    const seen = this.#units + (this.#options.mode === "lines" ? file.matches : 1);
    if (seen > this.#limitEnd) this.#overflow = true;
    if (this.#overflow && this.#options.stopOnOverflow) return false;
    return seen <= this.#limitEnd + this.#options.countHorizon;
  }

  #end(binaryOffset: number | null, matchedLines: number): boolean {
    const file = this.#file;
    this.#file = null;
    if (!file) return true;
    if (binaryOffset !== null) {
      this.#binaryFiles++;
      this.#chars -= file.chars;
      if (file.limitCut) this.#limitEnd = this.#options.offset + this.#options.limit;
      return true;
    }
    const lines = Math.max(file.matches, matchedLines);
    if (lines === 0) return true;
    this.#commit(file, lines);
    const seen = this.#units;
    if (seen > this.#limitEnd) this.#overflow = true;
    if (this.#overflow && this.#options.stopOnOverflow) return false;
    return seen <= this.#limitEnd + this.#options.countHorizon;
  }

  #commit(file: FileState, lines: number): void {
    if (lines === 0) return;
    const index = this.#units;
    this.#matchedLines += lines;
    this.#matchedFiles++;
    if (this.#options.mode === "lines") {
      // One unit per match event: a multiline match is one unit however many lines it spans.
      this.#units += file.matches;
      if (file.shown.length) {
        this.#files.push({ path: file.path, count: lines, units: file.matches, lines: file.shown });
      }
      this.#shown += file.shownUnits;
      return;
    }
    this.#units++;
    if (index >= this.#options.offset && index < this.#limitEnd) {
      this.#files.push({ path: file.path, count: lines, units: 1, lines: [] });
      this.#shown++;
    }
  }
}

function newFile(path: string): FileState {
  return {
    path: path.startsWith("./") ? path.slice(2) : path,
    matches: 0,
    shown: [],
    shownUnits: 0,
    chars: 0,
    pendingContext: [],
    lastMatchShown: false,
    lastMatchEnd: 0,
    lastShownUnit: 0,
    limitCut: false,
  };
}
