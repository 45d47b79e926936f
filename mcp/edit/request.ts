/**
 * Repairs the argument shapes models often send to edit_file before validation: top-level
 * old_text/new_text, `edits` as a JSON string or a single object, camelCase keys, the edits of several
 * files grouped as `{ path, edits }` items.
 * @module
 */
import { editError } from "./errors.ts";

const TOP_ALIASES: Record<string, string> = {
  filePath: "path",
  "file_path": "path",
  dryRun: "dry_run",
  expectedSha256: "expected_sha256",
};

const EDIT_ALIASES: Record<string, string> = {
  oldText: "old_text",
  newText: "new_text",
  replaceAll: "replace_all",
  expectedCount: "expected_count",
  // The names other edit tools use, so a model trained on them is understood too.
  "old_string": "old_text",
  "new_string": "new_text",
  oldString: "old_text",
  newString: "new_text",
};

/** An item of `edits` may name its file the ways the call does. */
const ITEM_ALIASES: Record<string, string> = { ...EDIT_ALIASES, filePath: "path", "file_path": "path" };

const EDIT_KEYS = ["old_text", "new_text", "replace_all", "expected_count"];

/**
 * Returns the arguments in the advertised shape where the intent is clear; other input is left as is.
 * Throws `invalid_request` when one argument is given under two spellings.
 */
export function normalizeEditArguments(args: unknown): unknown {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return args;
  const out = renameKeys(args as Record<string, unknown>, { ...TOP_ALIASES, ...EDIT_ALIASES });
  let edits = out.edits;
  if (typeof edits === "string") {
    try {
      edits = JSON.parse(edits);
    } catch {
      // Left for validation to report.
    }
  }
  if (edits !== null && typeof edits === "object" && !Array.isArray(edits)) edits = [edits];
  if (edits === undefined && "old_text" in out) {
    edits = [Object.fromEntries(EDIT_KEYS.filter((key) => key in out).map((key) => [key, out[key]]))];
  }
  if (edits !== undefined) {
    // An edit's fields beside `edits` belong to no edit: dropping them would apply less than was asked.
    const stray = EDIT_KEYS.find((key) => key in out && out.edits !== undefined);
    if (stray !== undefined) {
      throw editError(
        "invalid_request",
        `Cannot edit: "${stray}" was given beside "edits"; put it inside an item of "edits"`,
      );
    }
    for (const key of EDIT_KEYS) delete out[key];
    out.edits = Array.isArray(edits)
      ? edits.flatMap((edit) =>
        isRecord(edit)
          ? perFile(renameKeys(edit, ITEM_ALIASES)).map((item) => isRecord(item) ? coerceEdit(item) : item)
          : [edit]
      )
      : edits;
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `{ path, edits: [...] }` (the edits of one file grouped) as items that each carry the path. */
function perFile(item: Record<string, unknown>): Record<string, unknown>[] {
  const { path, edits } = item;
  if (!Array.isArray(edits) || Object.keys(item).some((key) => key !== "path" && key !== "edits")) {
    return [item];
  }
  return edits.map((edit) =>
    isRecord(edit) ? { ...(path === undefined ? {} : { path }), ...renameKeys(edit, ITEM_ALIASES) } : edit
  );
}

/**
 * The keys under their advertised names. Two spellings of one argument (`dry_run` and `dryRun`) are
 * refused: picking either could write when the model asked for a dry run.
 */
function renameKeys(
  value: Record<string, unknown>,
  aliases: Record<string, string>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const spelledAs = new Map<string, string>();
  for (const [key, item] of Object.entries(value)) {
    const name = aliases[key] ?? key;
    const first = spelledAs.get(name);
    if (first !== undefined) {
      throw editError(
        "invalid_request",
        `Cannot edit: "${first}" and "${key}" are two spellings of one argument; send only "${name}"`,
      );
    }
    spelledAs.set(name, key);
    out[name] = item;
  }
  return out;
}

/** `"true"` and `"3"` inside an edit, as the top-level arguments get them repaired too. */
function coerceEdit(edit: Record<string, unknown>): Record<string, unknown> {
  const replaceAll = edit.replace_all;
  if (replaceAll === "true" || replaceAll === "false") edit.replace_all = replaceAll === "true";
  const count = edit.expected_count;
  if (typeof count === "string" && /^\s*\d+\s*$/.test(count)) edit.expected_count = Number(count);
  return edit;
}
