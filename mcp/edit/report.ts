/** The text an edit_file call returns: summary, one line per edit, numbered hunks (or a diff), the new hash. */
import type { EditOutcome, EditPlan } from "./plan.ts";
import { numberedHunks, unifiedDiff } from "./hunk_text.ts";
import { describeTolerated, lineList } from "./tolerance.ts";
import { IN_PLACE_NOTE, type WriteMethod } from "./file_access.ts";
import { capText } from "../../lib/text/cap.ts";

/** What the report needs besides the plan. */
export interface ReportInput {
  display: string;
  dryRun: boolean;
  write: WriteMethod | "none";
  sha256After: string;
  /** The file's hash as read: what a dry run's real edit passes as expected_sha256. */
  sha256Before: string;
}

const MAX_DIFF_CHARS = 40_000;

/** Renders the result text for the model. */
export function renderEditReport(plan: EditPlan, input: ReportInput): string {
  const hunks = numberedHunks(plan.before, plan.after, plan.spans);
  const replacements = plan.edits.reduce((sum, edit) => sum + edit.replacements, 0);
  const counts = [
    `${plan.edits.length} ${plan.edits.length === 1 ? "edit" : "edits"}`,
    ...(replacements === plan.edits.length ? [] : [`${replacements} replacements`]),
    `+${hunks.added} -${hunks.removed} lines`,
  ].join(", ");
  const kept = keptNote(plan);
  const head = input.dryRun
    ? `Dry run, nothing written: ${input.display} would get ${counts}${kept}`
    : `Edited ${input.display}: ${counts}${kept}`;
  const lines = [head, ...plan.edits.map(editLine)];
  if (plan.decoded.invalidBytes > 0) {
    lines.push(`note: ${plan.decoded.invalidBytes} bytes that are not valid UTF-8 were kept as they were`);
  }
  if (input.write === "in_place") {
    lines.push(`note: ${IN_PLACE_NOTE}`);
  }
  if (input.dryRun) {
    lines.push(
      capText(unifiedDiff(plan.before, plan.after, plan.spans, input.display).trimEnd(), MAX_DIFF_CHARS),
    );
    lines.push(pinLine(input.sha256Before), `sha256 if applied: ${input.sha256After}`);
  } else {
    lines.push(hunks.text);
    lines.push(`sha256_after: ${input.sha256After}`);
  }
  return lines.join("\n");
}

/** The previewed file's hash, so the real edit can refuse (stale) a file changed after the preview. */
export function pinLine(sha256Before: string): string {
  return `sha256 now: ${sha256Before} (for expected_sha256)`;
}

function keptNote(plan: EditPlan): string {
  const kept: string[] = [];
  const endings = plan.lines.endings;
  if (endings === "crlf") kept.push("CRLF");
  if (endings === "cr") kept.push("CR line endings");
  if (endings === "mixed") kept.push("mixed line endings");
  if (plan.decoded.bom) kept.push("BOM");
  return kept.length ? ` (${kept.join(", ")} kept)` : "";
}

function editLine(edit: EditOutcome): string {
  const lines = edit.ranges.map((r) => r.new_start_line);
  const first = edit.ranges[0];
  const span = (from: number, to: number) => (to > from ? `lines ${from}-${to}` : `line ${from}`);
  let where: string;
  if (edit.ranges.length > 1) where = `${edit.replacements} replacements, ${lineList(lines)}`;
  else if (edit.linesRemoved) {
    where = `${span(first.old_start_line, first.old_end_line)} removed${
      edit.wholeLine ? " (whole line)" : ""
    }`;
  } else where = span(first.new_start_line, first.new_end_line);
  const notes: string[] = [];
  if (edit.tolerated.length) {
    notes.push(`${describeTolerated(edit.tolerated)}; the file's characters were kept`);
  }
  if (edit.wholeLine && edit.ranges.length > 1) notes.push("whole lines removed");
  return `edit ${edit.index} ${edit.match}, ${where}${notes.length ? `: ${notes.join("; ")}` : ""}`;
}
