/** search_grep's text: a heading per file, `line:text` / `line-context`, and one summary line. */
import { deniedNote, failedNotes } from "../../lib/ripgrep/messages.ts";
import { formatCount } from "../../lib/text/format.ts";
import { showPath } from "../../lib/workspace/path_text.ts";
import type { GrepMode, ShownFile } from "./collect.ts";
import type { GrepOutcome } from "./grep.ts";
import { timeoutNote } from "./timeout.ts";

/** What the summary needs to know about the request. */
export interface RenderRequest {
  pattern: string;
  /** The searched path as shown to the model. */
  where: string;
  mode: GrepMode;
  offset: number;
  context: number;
  multiline?: boolean;
  timeoutMs: number;
}

/** The whole tool result text. */
export function renderGrep(outcome: GrepOutcome, request: RenderRequest): string {
  const notes = notesOf(outcome, request);
  if (outcome.units === 0) {
    const searched = outcome.searched === null ? "" : ` (${formatCount(outcome.searched)} files searched)`;
    return [`No matches for /${request.pattern}/ in ${request.where}${searched}`, ...notes].join("\n");
  }
  const body = request.mode === "lines"
    ? outcome.files.map((file) => renderFile(file, request.context)).join("\n\n")
    : outcome.files.map((file) =>
      request.mode === "count" ? `${showPath(file.path)}:${file.count}` : showPath(file.path)
    ).join(
      "\n",
    );
  const parts = body ? [body, ""] : [];
  return [...parts, summary(outcome, request), ...notes].join("\n");
}

function renderFile(file: ShownFile, context: number): string {
  const out = [showPath(file.path)];
  let previous = -1;
  for (const line of file.lines) {
    if (context > 0 && previous >= 0 && line.lineNumber > previous + 1) out.push("--");
    out.push(`${line.lineNumber}${line.kind}${line.text}`);
    previous = line.lineNumber;
  }
  return out.join("\n");
}

/** `250 matching lines in 40 files (showing 1-100; offset=100 for more)` */
function summary(outcome: GrepOutcome, request: RenderRequest): string {
  const plus = outcome.complete ? "" : "+";
  // In lines mode pages count match events: a line, or a whole region with multiline. ripgrep's own count
  // (count mode) also counts a match spanning lines once.
  const n = request.mode === "lines" ? outcome.units : outcome.matchedLines;
  const noun = request.mode !== "files" && request.multiline ? "match" : "matching line";
  const lines = `${formatCount(n)}${plus} ${n === 1 ? noun : noun === "match" ? "matches" : `${noun}s`}`;
  const files = `${formatCount(outcome.matchedFiles)}${plus} ${plural(outcome.matchedFiles, "file")}`;
  const total = request.mode === "files" ? files : `${lines} in ${files}`;
  const unit = request.mode === "count" ? " files" : "";
  const first = request.offset + 1;
  const last = request.offset + outcome.shown;
  const range = first === last ? `${first}` : `${first}-${last}`;
  let page: string;
  if (outcome.shown === 0) page = `offset ${request.offset} is past the end`;
  else if (outcome.more) page = `showing${unit} ${range}; offset=${last} for more`;
  else if (request.offset > 0 || outcome.units > outcome.shown) page = `showing${unit} ${range}`;
  else return total;
  return `${total} (${page})`;
}

function notesOf(outcome: GrepOutcome, request: RenderRequest): string[] {
  const notes: string[] = [];
  if (outcome.binaryFiles > 0) {
    notes.push(
      `${formatCount(outcome.binaryFiles)} binary ${plural(outcome.binaryFiles, "file")} matched (skipped)`,
    );
  }
  if (outcome.denied.length) notes.push(deniedNote(outcome.denied));
  notes.push(...failedNotes(outcome.failed));
  if (outcome.timedOut) {
    notes.push(timeoutNote(request.timeoutMs, "results are partial; narrow path, glob or type"));
  }
  return notes;
}

function plural(n: number, word: string): string {
  return n === 1 ? word : `${word}s`;
}
