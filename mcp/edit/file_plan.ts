/**
 * One file of an edit_file call, planned under its lock and before any file is written: its bytes now, the
 * bytes it will get, and the report; nothing here writes.
 * @module
 */
import { dirname } from "node:path";
import { sha256Hex } from "../../lib/fs/sha256.ts";
import { formatCount } from "../../lib/text/format.ts";
import { editError } from "./errors.ts";
import { checkExpected } from "./expected_hash.ts";
import { decodeFile } from "./decode.ts";
import type { FileEdits } from "./edit_groups.ts";
import { type EditPlan, planEdits } from "./plan.ts";
import { pinLine, renderEditReport } from "./report.ts";
import {
  IN_PLACE_NOTE,
  notFoundError,
  readTarget,
  type ResolvedPath,
  statTarget,
  type Target,
  type WriteMethod,
} from "./file_access.ts";
import { numberedHunks, unifiedDiff } from "./hunk_text.ts";
import { LineIndex } from "./line_endings.ts";

const ACTION = "Cannot edit";

/** A file's change, computed and checked, not yet written. */
export interface FilePlan {
  target: Target;
  /** The file's bytes before the call; null when the call creates it (undoing it removes the file). */
  original: Uint8Array | null;
  sha256Before: string | null;
  bytes: Uint8Array;
  sha256After: string;
  /** The matched edits; null in create mode. */
  edits: EditPlan | null;
  /** Folders the write creates for a new file, deepest first (undoing it removes them when empty). */
  newFolders: string[];
  /** The indices in the call of this file's edits. */
  indices: number[];
}

/** Stats, reads and checks one file and plans its edits; throws the file's first failure. */
export async function planFile(
  file: FileEdits<ResolvedPath>,
  options: { maxBytes: number; expectedSha256?: string },
): Promise<FilePlan> {
  const target = await statTarget(file.path, ACTION);
  const create = file.edits.length === 1 && file.edits[0].old_text === "";
  if (!target.info) {
    if (!create) throw await notFoundError(target, ACTION, `Use old_text "" to create it.`);
    return await createPlan(target, file, null);
  }
  const bytes = await readTarget(target, options.maxBytes, ACTION);
  const before = await sha256Hex(bytes);
  checkExpected(options.expectedSha256, before, target.display);
  if (create) {
    decodeFile(bytes, target.display); // encoding and binary checks come before "exists"
    if (bytes.length > 0) {
      throw editError(
        "file_exists",
        `Cannot create "${target.display}": it already exists and is not empty; edit it with a non-empty old_text`,
      );
    }
    return await createPlan(target, file, bytes);
  }
  const plan = planEdits(bytes, file.edits, target.display, { indices: file.indices });
  return {
    target,
    original: bytes,
    sha256Before: before,
    bytes: plan.bytes,
    sha256After: await sha256Hex(plan.bytes),
    edits: plan,
    newFolders: [],
    indices: file.indices,
  };
}

async function createPlan(
  target: Target,
  file: FileEdits<ResolvedPath>,
  original: Uint8Array | null,
): Promise<FilePlan> {
  const bytes = new TextEncoder().encode(file.edits[0].new_text);
  return {
    target,
    original,
    sha256Before: original ? await sha256Hex(original) : null,
    bytes,
    sha256After: await sha256Hex(bytes),
    edits: null,
    newFolders: original ? [] : await missingFolders(dirname(target.real)),
    indices: file.indices,
  };
}

async function missingFolders(folder: string): Promise<string[]> {
  const missing: string[] = [];
  for (let at = folder; dirname(at) !== at; at = dirname(at)) {
    try {
      await Deno.lstat(at);
      break;
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) break;
      missing.push(at);
    }
  }
  return missing;
}

/** The action a write of this plan fails with: "Cannot edit" or "Cannot create". */
export function actionOf(plan: FilePlan): string {
  return plan.edits ? ACTION : "Cannot create";
}

/** The text for the model about one file: what changed (or would), hunks or a diff, the new hash. */
export function renderFilePlan(plan: FilePlan, write: WriteMethod | "none"): string {
  const display = plan.target.display;
  const dryRun = write === "none";
  if (plan.edits) {
    return renderEditReport(plan.edits, {
      display,
      dryRun,
      write,
      sha256After: plan.sha256After,
      sha256Before: plan.sha256Before!,
    });
  }
  const content = new TextDecoder().decode(plan.bytes);
  const lines = new LineIndex(content.replaceAll("\r\n", "\n"));
  const lineCount = content === "" ? 0 : lines.count;
  const size = `${formatCount(plan.bytes.length)} bytes, ${formatCount(lineCount)} ${
    lineCount === 1 ? "line" : "lines"
  }`;
  const spans = content === ""
    ? []
    : [{ edit: plan.indices[0], oldFrom: 1, oldTo: 1, newFrom: 1, newTo: lines.count }];
  const empty = new LineIndex("");
  if (dryRun) {
    return [
      `Dry run, nothing written: would create ${display} (${size})`,
      unifiedDiff(empty, lines, spans, display).trimEnd(),
      ...(plan.sha256Before === null ? [] : [pinLine(plan.sha256Before)]),
      `sha256 if applied: ${plan.sha256After}`,
    ].join("\n");
  }
  const verb = plan.original ? "Filled empty file" : "Created";
  const note = write === "in_place" ? `\nnote: ${IN_PLACE_NOTE}` : "";
  const preview = numberedHunks(empty, lines, spans, { context: 0, perHunk: 12, total: 12 }).text;
  return `${verb} ${display} (${size})${note}\n${preview}\nsha256_after: ${plan.sha256After}`;
}
