/** The line `notes_read` prints above each note, and spotting it when a model writes it back. */
import { NOTES_DIR } from "./repo_root.ts";

/** `=== <slug> (.continue-notes/<slug>.md; updated <version>)`. */
export function readHeader(slug: string, version: string): string {
  return `=== ${slug} (${NOTES_DIR}/${slug}.md; updated ${version})`;
}

const HEADER = new RegExp(
  String.raw`^\s*=== ([a-z0-9-]+) \(${
    NOTES_DIR.replace(".", "\\.")
  }/\1\.md; updated [^)\r\n]*\)[ \t]*(?:\r?\n|$)`,
);

/** `body` without a leading {@link readHeader} line, copied from `notes_read` output. */
export function stripReadHeader(body: string): string {
  return body.replace(HEADER, "");
}
