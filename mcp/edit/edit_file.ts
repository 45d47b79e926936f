/** edit_file: read, check, plan (pure), re-check and write, under a per-file lock. */
import type { Workspace } from "../../lib/workspace/workspace.ts";
import { sha256Hex } from "../../lib/fs/sha256.ts";
import { formatCount } from "../../lib/text/format.ts";
import { editError } from "./errors.ts";
import { hasLoneSurrogate } from "./decode.ts";
import { type EditRequest, planEdits } from "./plan.ts";
import { renderEditReport } from "./report.ts";
import {
  notFoundError,
  readTarget,
  resolvePath,
  statTarget,
  type Target,
  writeTarget,
} from "./file_access.ts";
import type { FileLocks } from "../../lib/fs/file_lock.ts";
import { decodeFile } from "./decode.ts";
import { numberedHunks, unifiedDiff } from "./hunk_text.ts";
import { LineIndex } from "./line_endings.ts";

/** What edit_file needs from the server. */
export interface EditDeps {
  workspace: Workspace;
  /** Held around read → check → write, across processes. */
  locks: FileLocks;
  /** Files above this size are refused. */
  maxBytes: number;
}

/** The validated arguments of edit_file. */
export interface EditFileInput {
  path: string;
  edits: EditRequest[];
  "dry_run"?: boolean;
  "expected_sha256"?: string;
}

const ACTION = "Cannot edit";

/** Runs one edit_file call and returns the text for the model. */
export async function editFile(deps: EditDeps, input: EditFileInput): Promise<string> {
  validateRequest(input);
  const path = await resolvePath(deps.workspace, input.path, ACTION);
  const locked = { action: `${ACTION} "${path.display}"` };
  return await deps.locks.run(path.real, async () => {
    const target = await statTarget(path, ACTION);
    const create = input.edits.length === 1 && input.edits[0].old_text === "";
    if (!target.info) {
      if (!create) throw await notFoundError(target, ACTION, `Use old_text "" to create it.`);
      return await createFile(target, input.edits[0].new_text, input);
    }
    const bytes = await readTarget(target, deps.maxBytes, ACTION);
    const before = await sha256Hex(bytes);
    checkExpected(input.expected_sha256, before, target.display);
    if (create) {
      decodeFile(bytes, target.display); // encoding and binary checks come before "exists"
      if (bytes.length > 0) {
        throw editError(
          "file_exists",
          `Cannot create "${target.display}": it already exists and is not empty; edit it with a non-empty old_text`,
        );
      }
      return await createFile(target, input.edits[0].new_text, input);
    }
    const plan = planEdits(bytes, input.edits, target.display);
    const after = await sha256Hex(plan.bytes);
    if (input.dry_run) {
      return renderEditReport(plan, {
        display: target.display,
        dryRun: true,
        write: "none",
        sha256After: after,
      });
    }
    await recheck(target, before);
    const write = await writeTarget(target, plan.bytes, ACTION);
    return renderEditReport(plan, { display: target.display, dryRun: false, write, sha256After: after });
  }, locked);
}

function validateRequest(input: EditFileInput): void {
  if (input.edits.length > 1 && input.edits.some((edit) => edit.old_text === "")) {
    throw editError(
      "invalid_request",
      `Cannot edit "${input.path}": old_text "" (create a file) works only as the single edit of a call`,
    );
  }
  input.edits.forEach((edit, index) => {
    if (hasLoneSurrogate(edit.old_text) || hasLoneSurrogate(edit.new_text)) {
      throw editError(
        "invalid_request",
        `Cannot edit "${input.path}": edit ${index} contains an unpaired surrogate`,
      );
    }
    const count = edit.expected_count;
    if (count !== undefined && (!Number.isInteger(count) || count < 0)) {
      throw editError(
        "invalid_request",
        `Cannot edit "${input.path}": edit ${index} has expected_count ${count}; use a whole number of occurrences`,
      );
    }
    if (edit.expected_count !== undefined && !edit.replace_all && edit.expected_count !== 1) {
      throw editError(
        "invalid_request",
        `Cannot edit "${input.path}": edit ${index} has expected_count ${edit.expected_count} without replace_all; set replace_all: true`,
      );
    }
  });
  if (input.expected_sha256 !== undefined && !/^[0-9a-f]{64}$/.test(normalizeHash(input.expected_sha256))) {
    throw editError(
      "invalid_request",
      `Cannot edit "${input.path}": expected_sha256 must be 64 hex digits (the SHA-256 of the file as read)`,
    );
  }
}

/** Accepts `SHA256:ABC…`, fs_read's `sha256 abc…` and stray spaces as models send them. */
export function normalizeHash(hash: string): string {
  return hash.trim().toLowerCase().replace(/^sha-?256\s*:?\s*/, "");
}

/** Throws `stale` when the file's hash is not the one the model read. */
export function checkExpected(expected: string | undefined, current: string, display: string): void {
  if (expected === undefined || normalizeHash(expected) === current) return;
  throw editError(
    "stale",
    `Cannot change "${display}": it changed since it was read (expected_sha256 ${
      normalizeHash(expected)
    }, current ${current}); read it again`,
  );
}

/** Throws `stale` when the file changed on disk while this call was computing. */
async function recheck(target: Target, before: string): Promise<void> {
  let now: string;
  try {
    now = await sha256Hex(await Deno.readFile(target.real));
  } catch {
    now = "(unreadable)";
  }
  if (now !== before) {
    throw editError(
      "stale",
      `Cannot edit "${target.display}": it changed on disk during the edit (was ${before}, now ${now}); read it again`,
    );
  }
}

async function createFile(target: Target, content: string, input: EditFileInput): Promise<string> {
  const data = new TextEncoder().encode(content);
  const after = await sha256Hex(data);
  const lines = new LineIndex(content.replaceAll("\r\n", "\n"));
  const lineCount = content === "" ? 0 : lines.count;
  const size = `${formatCount(data.length)} bytes, ${formatCount(lineCount)} ${
    lineCount === 1 ? "line" : "lines"
  }`;
  const spans = content === "" ? [] : [{ edit: 0, oldFrom: 1, oldTo: 1, newFrom: 1, newTo: lines.count }];
  const empty = new LineIndex("");
  if (input.dry_run) {
    return [
      `Dry run, nothing written: would create ${target.display} (${size})`,
      unifiedDiff(empty, lines, spans, target.display).trimEnd(),
      `sha256 if applied: ${after}`,
    ].join("\n");
  }
  const write = await writeTarget(target, data, "Cannot create");
  const verb = target.info ? "Filled empty file" : "Created";
  const note = write === "in_place"
    ? "\nnote: written in place (the file has hard links or its folder is read-only)"
    : "";
  const preview = numberedHunks(empty, lines, spans, { context: 0, perHunk: 12, total: 12 }).text;
  return `${verb} ${target.display} (${size})${note}\n${preview}\nsha256_after: ${after}`;
}
