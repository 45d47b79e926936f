/** edit_write: write a whole file atomically, refusing to clobber unread content. */
import { sha256Hex } from "../../lib/fs/sha256.ts";
import { formatCount } from "../../lib/text/format.ts";
import { editError } from "./errors.ts";
import { hasLoneSurrogate } from "./decode.ts";
import type { EditDeps } from "./edit_file.ts";
import { checkExpected, isHash } from "./expected_hash.ts";
import { IN_PLACE_NOTE, readTarget, resolvePath, statTarget, writeTarget } from "./file_access.ts";

/** The validated arguments of edit_write. */
export interface EditWriteInput {
  path: string;
  content: string;
  overwrite?: boolean;
  "expected_sha256"?: string;
}

const ACTION = "Cannot write";

/** Runs one edit_write call and returns the text for the model. */
export async function editWrite(deps: EditDeps, input: EditWriteInput): Promise<string> {
  if (hasLoneSurrogate(input.content)) {
    throw editError("invalid_request", `${ACTION} "${input.path}": content contains an unpaired surrogate`);
  }
  if (input.expected_sha256 !== undefined && !isHash(input.expected_sha256)) {
    throw editError("invalid_request", `${ACTION} "${input.path}": expected_sha256 must be 64 hex digits`);
  }
  const path = await resolvePath(deps.workspace, input.path, ACTION);
  return await deps.locks.run(path.real, async () => {
    const target = await statTarget(path, ACTION);
    const data = new TextEncoder().encode(input.content);
    const after = await sha256Hex(data);
    let verb = "Created";
    const notes: string[] = [];
    if (target.info) {
      if (target.info.isDirectory) {
        throw editError("is_directory", `${ACTION} "${target.display}": it is a folder; give a file path`);
      }
      if (input.expected_sha256 !== undefined) {
        const before = await sha256Hex(await readTarget(target, deps.maxBytes, ACTION));
        checkExpected(input.expected_sha256, before, target.display);
        if (before === after) {
          return `Unchanged ${target.display}: it already has this content\nsha256_after: ${after}`;
        }
      } else if (target.info.size > 0 && !input.overwrite) {
        throw editError(
          "file_exists",
          `${ACTION} "${target.display}": it exists and is not empty; pass overwrite: true (or the expected_sha256 ` +
            `of the content you read) to replace it, or use edit_file to change part of it`,
        );
      }
      verb = "Replaced";
      if (target.info.size > 0) notes.push(...await conventionNotes(target.real, input.content));
    } else if (input.expected_sha256 !== undefined) {
      throw editError(
        "stale",
        `${ACTION} "${target.display}": it no longer exists (expected_sha256 was given); read it again`,
      );
    }
    const write = await writeTarget(target, data, { action: ACTION, locks: deps.locks });
    const text = input.content.replaceAll("\r\n", "\n");
    const lines = text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    if (write === "in_place") {
      notes.push(IN_PLACE_NOTE);
    }
    const size = `${formatCount(data.length)} bytes, ${formatCount(lines)} ${lines === 1 ? "line" : "lines"}`;
    return `${verb} ${target.display}: ${size}${
      notes.map((note) => `\nnote: ${note}`).join("")
    }\nsha256_after: ${after}`;
  }, { action: `${ACTION} "${path.display}"` });
}

/**
 * What the replaced file did that the new content does not (CRLF, a BOM), judged from its first 64 KB, so
 * the model notices a convention it may have dropped by accident.
 */
async function conventionNotes(real: string, content: string): Promise<string[]> {
  const head = new Uint8Array(64 * 1024);
  let length = 0;
  try {
    using file = await Deno.open(real, { read: true });
    length = (await file.read(head)) ?? 0;
  } catch {
    return [];
  }
  // ignoreBOM keeps a leading U+FEFF in the text, which is what is looked for.
  const old = new TextDecoder("utf-8", { ignoreBOM: true }).decode(head.subarray(0, length));
  const notes: string[] = [];
  const oldCrlf = old.includes("\r\n");
  if (oldCrlf && content.includes("\n") && !content.includes("\r\n")) {
    notes.push("the replaced file used CRLF line endings; the content was written with LF as given");
  }
  if (old.startsWith("\uFEFF") && !content.startsWith("\uFEFF")) {
    notes.push("the replaced file started with a UTF-8 BOM; the content was written without one");
  }
  return notes;
}
