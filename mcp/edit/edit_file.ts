/**
 * edit_file: group the edits per file, then under the files' locks read, check and plan every file (pure),
 * and only when all of them are fine re-check and write them, putting back earlier files if a later
 * write fails.
 * @module
 */
import type { Workspace } from "../../lib/workspace/workspace.ts";
import { sha256Hex } from "../../lib/fs/sha256.ts";
import { ToolError } from "../../lib/mcp/errors.ts";
import { capText } from "../../lib/text/cap.ts";
import type { FileLocks } from "../../lib/fs/file_lock.ts";
import { editError } from "./errors.ts";
import { checkCreateAlone, type EditItem, type FileEdits, groupEdits, mergeSameFile } from "./edit_groups.ts";
import { actionOf, type FilePlan, planFile, renderFilePlan } from "./file_plan.ts";
import { checkWritable, type ResolvedPath, resolvePath, writeTarget } from "./file_access.ts";
import { writeAll } from "./write_files.ts";

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
  path?: string;
  edits: EditItem[];
  "dry_run"?: boolean;
  "expected_sha256"?: string;
}

const ACTION = "Cannot edit";
const MAX_ERROR_CHARS = 16_000;

/** Runs one edit_file call and returns the text for the model. */
export async function editFile(deps: EditDeps, input: EditFileInput): Promise<string> {
  const named = groupEdits(input);
  const resolved: FileEdits<ResolvedPath>[] = [];
  for (const file of named) {
    resolved.push({ ...file, path: await resolvePath(deps.workspace, file.path, ACTION) });
  }
  const files = mergeSameFile(resolved, (path) => path.real);
  for (const file of files) checkCreateAlone(file, file.path.display, files.length);
  if (files.length > 1 && input.expected_sha256 !== undefined) {
    throw editError(
      "invalid_request",
      `${ACTION} ${files.length} files: expected_sha256 checks a single file; leave it out when edits name ` +
        "several files (each is still re-checked just before it is written)",
    );
  }
  const action = `${ACTION} ${files.map((file) => `"${file.path.display}"`).join(", ")}`;
  return await deps.locks.runAll(files.map((file) => file.path.real), async () => {
    const plans = await planAll(files, { maxBytes: deps.maxBytes, expectedSha256: input.expected_sha256 });
    if (input.dry_run) return plans.map((plan) => renderFilePlan(plan, "none")).join("\n");
    try {
      // A read-only file anywhere in the call refuses it before any file is written.
      for (const plan of plans) {
        if (plan.target.info) await checkWritable(plan.target, actionOf(plan), deps.locks);
      }
    } catch (error) {
      throw nothingWritten([error as ToolError], plans.length);
    }
    const methods = await writeAll(plans, {
      write: async (plan) => {
        await recheck(plan);
        return await writeTarget(plan.target, plan.bytes, { action: actionOf(plan), locks: deps.locks });
      },
      restore: (plan) => restore(plan, deps.locks),
      display: (plan) => plan.target.display,
    });
    return plans.map((plan, at) => renderFilePlan(plan, methods[at])).join("\n");
  }, { action });
}

/** Plans every file; when any fails, throws them all together (nothing has been written). */
async function planAll(
  files: FileEdits<ResolvedPath>[],
  options: { maxBytes: number; expectedSha256?: string },
): Promise<FilePlan[]> {
  if (files.length === 1) return [await planFile(files[0], options)];
  const plans: FilePlan[] = [];
  const failures: ToolError[] = [];
  for (const file of files) {
    try {
      plans.push(await planFile(file, options));
    } catch (error) {
      if (!(error instanceof ToolError)) throw error;
      failures.push(error);
    }
  }
  if (failures.length) throw nothingWritten(failures, files.length);
  return plans;
}

/** The failures of a several-file call as one error: the first one's code and kind, every file's message. */
function nothingWritten(failures: ToolError[], fileCount: number): ToolError {
  if (fileCount === 1) return failures[0];
  const messages = capText(failures.map((failure) => failure.message).join("\n"), MAX_ERROR_CHARS);
  return new ToolError(
    failures[0].code,
    `${messages}\nNothing was written: all ${fileCount} files of the call are unchanged`,
    { meta: failures[0].meta },
  );
}

/** Throws `stale` when the file changed on disk while this call was computing. */
async function recheck(plan: FilePlan): Promise<void> {
  const now = await currentHash(plan.target.real);
  if (now === plan.sha256Before) return;
  const display = plan.target.display;
  throw editError(
    "stale",
    plan.sha256Before === null
      ? `Cannot create "${display}": another program created it during the edit; read it, then edit it`
      : `${ACTION} "${display}": it changed on disk during the edit (was ${plan.sha256Before}, now ${
        now ?? "(unreadable)"
      }); read it again`,
  );
}

/** Puts a written file's original bytes back, or removes a file the call created, unless it changed since. */
async function restore(plan: FilePlan, locks: FileLocks): Promise<void> {
  // A writer that does not take our lock may have changed it since: never overwrite their bytes.
  const now = await currentHash(plan.target.real);
  if (now !== plan.sha256After) throw new Error("it changed again after the write");
  if (plan.original) {
    await writeTarget(plan.target, plan.original, { action: "Cannot put back", locks });
    return;
  }
  await Deno.remove(plan.target.real);
  for (const folder of plan.newFolders) {
    await Deno.remove(folder).catch(() => {}); // Only empty folders go; something else may live there now.
  }
}

/** The SHA-256 of the file now; null when it does not exist or cannot be read. */
async function currentHash(path: string): Promise<string | null> {
  try {
    return await sha256Hex(await Deno.readFile(path));
  } catch {
    return null;
  }
}
