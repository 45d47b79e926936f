/**
 * The request checks of edit_file that need no disk, and the edits grouped per file: each edit names its
 * file (`edits[].path`) or takes the call's `path`; a file named twice gets one group, so all its edits are
 * matched against it together.
 * @module
 */
import { editError } from "./errors.ts";
import { hasLoneSurrogate } from "./decode.ts";
import { isHash } from "./expected_hash.ts";
import type { EditRequest } from "./plan.ts";

/** One item of `edits`: an edit, and the file it is for when not the call's `path`. */
export interface EditItem extends EditRequest {
  path?: string;
}

/** The edits of one file, with their indices in the call (as reports and errors name them). */
export interface FileEdits<P = string> {
  path: P;
  edits: EditItem[];
  indices: number[];
}

/** Checks the shape of a call (first failure wins) and groups its edits by the path they name. */
export function groupEdits(
  input: { path?: string; edits: EditItem[]; "expected_sha256"?: string },
): FileEdits[] {
  const groups = new Map<string, FileEdits>();
  input.edits.forEach((edit, index) => {
    const path = edit.path ?? input.path;
    if (path === undefined) {
      throw editError(
        "invalid_request",
        `Cannot edit: edit ${index} names no file; give path, or a path in each edit`,
      );
    }
    checkEdit(edit, index, path);
    const group = groups.get(path) ?? { path, edits: [], indices: [] };
    group.edits.push(edit);
    group.indices.push(index);
    groups.set(path, group);
  });
  const files = [...groups.values()];
  for (const file of files) checkCreateAlone(file, file.path, files.length);
  const hash = input.expected_sha256;
  if (hash !== undefined && !isHash(hash)) {
    throw editError(
      "invalid_request",
      `Cannot edit "${
        files[0].path
      }": expected_sha256 must be 64 hex digits (the SHA-256 of the file as read)`,
    );
  }
  return files;
}

/**
 * Merges groups that turned out to name one file (`a.ts` and `./a.ts`), keeping the call's order, and
 * checks the merged ones again.
 */
export function mergeSameFile<P>(files: FileEdits<P>[], keyOf: (path: P) => string): FileEdits<P>[] {
  const merged = new Map<string, FileEdits<P>>();
  for (const file of files) {
    const key = keyOf(file.path);
    const into = merged.get(key);
    if (!into) {
      merged.set(key, { ...file, edits: [...file.edits], indices: [...file.indices] });
      continue;
    }
    const items = [...into.indices, ...file.indices].map((index, at) => ({
      index,
      edit: at < into.indices.length ? into.edits[at] : file.edits[at - into.indices.length],
    })).sort((a, b) => a.index - b.index);
    into.indices = items.map((item) => item.index);
    into.edits = items.map((item) => item.edit);
  }
  return [...merged.values()];
}

/** Create mode (old_text "") is all a file's edits can be: a second edit would have nothing to match. */
export function checkCreateAlone(file: FileEdits<unknown>, display: string, fileCount: number): void {
  if (file.edits.length < 2 || !file.edits.some((edit) => edit.old_text === "")) return;
  throw editError(
    "invalid_request",
    fileCount === 1
      ? `Cannot edit "${display}": old_text "" (create a file) works only as the single edit of a call`
      : `Cannot edit "${display}": old_text "" (create a file) works only as the single edit for its file`,
  );
}

function checkEdit(edit: EditItem, index: number, path: string): void {
  if (hasLoneSurrogate(edit.old_text) || hasLoneSurrogate(edit.new_text)) {
    throw editError("invalid_request", `Cannot edit "${path}": edit ${index} contains an unpaired surrogate`);
  }
  const count = edit.expected_count;
  if (count !== undefined && (!Number.isInteger(count) || count < 0)) {
    throw editError(
      "invalid_request",
      `Cannot edit "${path}": edit ${index} has expected_count ${count}; use a whole number of occurrences`,
    );
  }
  if (count !== undefined && !edit.replace_all && count !== 1) {
    throw editError(
      "invalid_request",
      `Cannot edit "${path}": edit ${index} has expected_count ${count} without replace_all; set replace_all: true`,
    );
  }
}
