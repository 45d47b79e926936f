/** One note file on disk, read into what the tools show: title, summary, tags, dates, body. */
import { ToolError } from "../../lib/mcp/errors.ts";
import { type FrontMatter, parseNote } from "./front_matter.ts";
import { firstHeading, firstSentence } from "./derive.ts";
import { titleFromSlug } from "./slug.ts";

/** A note as read from disk, front matter gaps filled from the body or the file. */
export interface Note {
  slug: string;
  /** Absolute path of the file. */
  path: string;
  title: string;
  summary: string;
  tags: string[];
  /** The authored date: front matter `updated`, else the file's mtime (ISO). */
  updated: string;
  updatedMs: number;
  /**
   * What `expected_updated` is compared with: the front matter `updated`, unless the file was modified
   * after it (edited by hand, or checked out by git), then the file's mtime.
   */
  version: string;
  /** The file's text (front matter included) and the parsed parts. */
  text: string;
  front: FrontMatter;
  body: string;
  size: number;
  /** Whether the file was not valid UTF-8 (its text then holds U+FFFD where bytes were undecodable). */
  lossy: boolean;
  /** The file's creation (or modification) time, for a note whose front matter lacks `created`. */
  fileCreated: string;
}

/** Files larger than this are read only up to it (a note the server writes is at most 64 KiB). */
export const MAX_READ_BYTES = 1024 * 1024;

const strictDecoder = new TextDecoder("utf-8", { fatal: true });
const lenientDecoder = new TextDecoder();

/** Reads and interprets the note `slug` at `path`; throws `not_found` or `permission_denied`. */
export async function loadNote(path: string, slug: string): Promise<Note> {
  const info = await lstatOrNull(path);
  if (!info) throw new ToolError("not_found", `Cannot read note "${slug}": no such note`);
  if (!info.isFile) {
    throw new ToolError(
      "permission_denied",
      `Cannot read note "${slug}": "${slug}.md" is ${
        info.isSymlink ? "a symlink" : "not a file"
      }; notes must be regular files`,
    );
  }
  const bytes = await readHead(path, Math.min(info.size, MAX_READ_BYTES));
  let text: string;
  let lossy = false;
  try {
    text = strictDecoder.decode(bytes);
  } catch {
    text = lenientDecoder.decode(bytes);
    lossy = true;
  }
  return interpret({
    slug,
    path,
    text,
    size: info.size,
    mtime: info.mtime,
    birthtime: info.birthtime,
    lossy,
  });
}

/** Builds a {@link Note} from a file's text and times; never throws, whatever the front matter holds. */
export function interpret(file: {
  slug: string;
  path: string;
  text: string;
  size: number;
  mtime: Date | null;
  birthtime?: Date | null;
  lossy?: boolean;
}): Note {
  const { front, body } = parseNote(file.text);
  const mtimeMs = file.mtime?.getTime() ?? 0;
  const frontMs = front.updated ? Date.parse(front.updated) : NaN;
  const hasFrontDate = Number.isFinite(frontMs);
  const mtimeIso = new Date(mtimeMs).toISOString();
  return {
    slug: file.slug,
    path: file.path,
    title: front.title ?? firstHeading(body) ?? titleFromSlug(file.slug),
    summary: front.summary ?? firstSentence(body) ?? "",
    tags: front.tags ?? [],
    updated: hasFrontDate ? front.updated! : mtimeIso,
    updatedMs: hasFrontDate ? frontMs : mtimeMs,
    version: hasFrontDate && mtimeMs <= frontMs ? front.updated! : mtimeIso,
    text: file.text,
    front,
    body,
    size: file.size,
    lossy: file.lossy ?? false,
    fileCreated: (file.birthtime ?? file.mtime ?? new Date(0)).toISOString(),
  };
}

/** Whether `a` and `b` name the same instant (ISO strings in any precision or zone). */
export function sameInstant(a: string, b: string): boolean {
  const left = Date.parse(a);
  return Number.isFinite(left) && left === Date.parse(b);
}

async function readHead(path: string, maxBytes: number): Promise<Uint8Array> {
  using file = await Deno.open(path, { read: true });
  const buffer = new Uint8Array(maxBytes);
  let filled = 0;
  while (filled < maxBytes) {
    const read = await file.read(buffer.subarray(filled));
    if (read === null) break;
    filled += read;
  }
  return buffer.subarray(0, filled);
}

/** `Deno.lstat`, or null when nothing is there. */
export async function lstatOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) return null;
    throw error;
  }
}
