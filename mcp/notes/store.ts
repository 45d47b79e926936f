/**
 * The notes folder of one repository: list, read, write (replace or append) and delete notes, each a
 * markdown file `<slug>.md` written through the toolkit's one write path (lib/fs/file_write.ts). The server
 * owns the front matter; the body is the caller's.
 * @module
 */
import { removeFile, writeFile } from "../../lib/fs/file_write.ts";
import { refuseProtectedWrite } from "../../lib/sandbox/write_guard.ts";
import { FileLocks } from "../../lib/fs/file_lock.ts";
import { ToolError } from "../../lib/mcp/errors.ts";
import { formatCount } from "../../lib/text/format.ts";
import { platform, toSlashes } from "../../lib/platform/mod.ts";
import { closestSlugs, isSlug, titleFromSlug, validateSlug } from "./slug.ts";
import { loadNote, lstatOrNull, type Note } from "./note_file.ts";
import { checkExpected, composeNote, slugFromTitle, type WriteRequest } from "./compose.ts";

export type { WriteRequest };
import { type FolderListing, followNotesLink, listFolder, NOTES_DIR } from "./repo_root.ts";

/** The largest note the server writes. */
export const MAX_NOTE_BYTES = 64 * 1024;
/** How far ahead of our clock a note's `updated` may be and still count as another writer's clock. */
const MAX_CLOCK_SKEW_MS = 60_000;

/** What a write did. */
export interface WriteResult {
  slug: string;
  path: string;
  action: "created" | "replaced" | "appended";
  updated: string;
  size: number;
}

/** Every note of the folder, and the `.md` files skipped because their names are not slugs. */
export interface Listing {
  notes: Note[];
  skipped: string[];
}

/** How a store finds its folder and tells the time. */
export interface StoreOptions {
  /**
   * The repository root; the notes live in its `.continue-notes/`. `listing`, when given, is the likely
   * root's, being read: what it says need not be looked up again.
   */
  locateRoot: (listing?: Promise<FolderListing | undefined>) => Promise<string>;
  /**
   * Where `locateRoot` most likely answers (undefined: no guess): notes_list reads that folder and its
   * notes folder while the root is looked for, and the root search and the notes folder check take what
   * they need from the listing; a wrong guess is dropped.
   */
  likelyRoot?: () => Promise<string | undefined>;
  now?: () => Date;
}

const encoder = new TextEncoder();

/** The notes of the repository `locateRoot` points at (asked again on every call: roots can change). */
export class NoteStore {
  #locateRoot: (listing?: Promise<FolderListing | undefined>) => Promise<string>;
  #likelyRoot: () => Promise<string | undefined>;
  #now: () => Date;
  /** Writes and deletes of one note file never interleave, within this server or across processes. */
  #locks = new FileLocks();

  constructor(options: StoreOptions) {
    this.#locateRoot = options.locateRoot;
    this.#likelyRoot = options.likelyRoot ?? (() => Promise.resolve(undefined));
    this.#now = options.now ?? (() => new Date());
  }

  /** The repository root and its notes folder (which may not exist yet). */
  async folder(): Promise<{ root: string; dir: string }> {
    return await this.#checkFolder(await this.#locateRoot());
  }

  /** `entry`: the folder's lstat already known (null: nothing there), from a listing of `root`. */
  async #checkFolder(
    root: string,
    entry?: Deno.DirEntry | null,
  ): Promise<{ root: string; dir: string; exists: boolean }> {
    const dir = platform.path.join(root, NOTES_DIR);
    const info = entry === undefined ? await lstatOrNull(dir) : entry;
    if (!info) return { root, dir, exists: false };
    // A cloned repository could point its notes folder anywhere, e.g. at ~/.ssh.
    const real = info.isSymlink ? await followNotesLink(dir) : dir;
    if (!platform.isInside(real, root)) {
      throw new ToolError(
        "permission_denied",
        `Cannot use "${NOTES_DIR}": it links outside the repository; replace the symlink with a folder`,
      );
    }
    if (info.isSymlink ? !(await Deno.stat(dir)).isDirectory : !info.isDirectory) {
      throw new ToolError("invalid_argument", `Cannot use "${NOTES_DIR}": it is not a folder; rename it`);
    }
    return { root, dir, exists: true };
  }

  /** All notes, in folder order; files that are not notes are named in `skipped`. */
  async list(): Promise<Listing> {
    // Each file call is a trip through Deno's blocking thread pool, so they go out at once: the likely
    // root (the workspace) is listed, which tells whether it holds `.git` and the notes folder, and the
    // notes folder is read, while the levels above are looked up. The names are used only once the
    // folder passed its check, and only when the guess was right.
    const likely = await this.#likelyRoot();
    const listing = likely === undefined ? undefined : listFolder(likely);
    const early = likely === undefined ? undefined : this.#names(platform.path.join(likely, NOTES_DIR));
    early?.catch(() => {});
    const root = await this.#locateRoot(listing);
    const guessed = likely === root ? await listing : undefined;
    const known = guessed ? guessed.entries.get(NOTES_DIR) ?? null : undefined;
    const { dir, exists } = await this.#checkFolder(root, known);
    const names = !exists ? [] : early && guessed ? await early : await this.#names(dir);
    const slugs = names.filter((name) => isSlug(name.slice(0, -3))).map((name) => name.slice(0, -3));
    const skipped = names.filter((name) => !isSlug(name.slice(0, -3)));
    const notes: Note[] = [];
    // Bounded batches: thousands of notes must not exhaust file handles.
    for (let i = 0; i < slugs.length; i += 32) {
      const batch = await Promise.all(
        slugs.slice(i, i + 32).map(async (slug) => {
          try {
            return await loadNote(platform.path.join(dir, `${slug}.md`), slug);
          } catch {
            skipped.push(`${slug}.md`);
            return undefined;
          }
        }),
      );
      notes.push(...batch.filter((note) => note !== undefined));
    }
    return { notes, skipped };
  }

  /** One note; `not_found` suggests the closest slugs. */
  async read(slug: string): Promise<Note> {
    slug = validateSlug(slug);
    const { dir } = await this.folder();
    try {
      return await loadNote(platform.path.join(dir, `${slug}.md`), slug);
    } catch (error) {
      throw await this.#withSuggestion(error, dir, slug);
    }
  }

  /** Creates, replaces or appends to a note; refuses a stale `expectedUpdated` with `conflict`. */
  async write(request: WriteRequest): Promise<WriteResult> {
    const slug = request.slug === undefined ? slugFromTitle(request.title) : validateSlug(request.slug);
    const expected = request.expectedUpdated;
    if (expected !== undefined && !Number.isFinite(Date.parse(expected))) {
      throw new ToolError(
        "invalid_argument",
        `Cannot write note "${slug}": expected_updated "${expected}" is not a date; pass the "updated" value notes_read showed`,
      );
    }
    if (request.body.includes("\0")) {
      // A NUL makes the note a binary file to every other tool (edit refuses it, grep skips it).
      throw new ToolError(
        "invalid_argument",
        `Cannot write note "${slug}": the body contains a NUL character; remove it`,
      );
    }
    const { root, dir } = await this.folder();
    const path = platform.path.join(dir, `${slug}.md`);
    return await this.#locks.run(path, async () => {
      const existing = await loadNote(path, slug).catch((error) => {
        if (!(error instanceof ToolError)) throw error;
        if (error.code === "not_found") return undefined;
        throw new ToolError(error.code, error.message.replace(/^Cannot read/, "Cannot write"));
      });
      if (expected !== undefined) checkExpected(slug, expected, existing);
      if (existing?.lossy && request.mode === "append") {
        throw new ToolError(
          "invalid_argument",
          `Cannot append to note "${slug}": the file is not valid UTF-8 text and rewriting it would alter ` +
            `it; fix it by hand or replace it`,
        );
      }
      const now = this.#now().getTime();
      // `updated` moves forward on every write (expected_updated relies on it) unless the note claims a
      // date far in the future, which a typo in a hand edit must not make permanent.
      const previous = existing && existing.updatedMs - now < MAX_CLOCK_SKEW_MS ? existing.updatedMs : 0;
      const updatedMs = Math.max(now, previous + 1);
      const updated = new Date(updatedMs).toISOString();
      const text = composeNote(slug, request, { existing, updated });
      const bytes = encoder.encode(text);
      if (bytes.length > MAX_NOTE_BYTES) {
        throw new ToolError(
          "too_large",
          `Cannot write note "${slug}": it would be ${formatCount(bytes.length)} bytes, over the ` +
            `${formatCount(MAX_NOTE_BYTES)}-byte limit; split it into several notes or shorten it`,
        );
      }
      const rules = { locks: this.#locks, action: `Cannot write note "${slug}"`, roots: [root] };
      // Before the folder is made: a `.continue-notes` link into `.git/hooks` must not lead a note there.
      await refuseProtectedWrite(path, rules);
      await Deno.mkdir(dir, { recursive: true });
      await writeFile(path, bytes, { ...rules, display: relativeTo(root, path), mtime: new Date(updatedMs) });
      const action = !existing ? "created" : request.mode === "append" ? "appended" : "replaced";
      return { slug, path: relativeTo(root, path), action, updated, size: bytes.length };
    }, { action: `Cannot write note "${slug}"` });
  }

  /** Removes a note's file; returns its title and path relative to the repository root. */
  async delete(slug: string): Promise<{ slug: string; title: string; path: string }> {
    slug = validateSlug(slug);
    const { root, dir } = await this.folder();
    const path = platform.path.join(dir, `${slug}.md`);
    return await this.#locks.run(path, async () => {
      const info = await lstatOrNull(path);
      if (!info || info.isDirectory) {
        throw await this.#withSuggestion(
          new ToolError("not_found", `Cannot delete note "${slug}": no such note`),
          dir,
          slug,
        );
      }
      const title = info.isFile ? (await loadNote(path, slug)).title : titleFromSlug(slug);
      await removeFile(path, {
        locks: this.#locks,
        action: `Cannot delete note "${slug}"`,
        display: relativeTo(root, path),
        roots: [root],
      });
      return { slug, title, path: relativeTo(root, path) };
    }, { action: `Cannot delete note "${slug}"` });
  }

  async #names(dir: string): Promise<string[]> {
    const names: string[] = [];
    try {
      for await (const entry of Deno.readDir(dir)) {
        if (entry.name.endsWith(".md") && !entry.name.startsWith(".")) names.push(entry.name);
      }
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    return names.sort();
  }

  async #withSuggestion(error: unknown, dir: string, slug: string): Promise<unknown> {
    if (!(error instanceof ToolError) || error.code !== "not_found") return error;
    const slugs = (await this.#names(dir)).map((name) => name.slice(0, -3)).filter(isSlug);
    const close = closestSlugs(slug, slugs);
    const hint = close.length
      ? `; did you mean ${close.map((s) => `"${s}"`).join(", ")}?`
      : "; notes_list shows the notes that exist";
    return new ToolError("not_found", `${error.message}${hint}`);
  }
}

function relativeTo(root: string, path: string): string {
  return toSlashes(platform.path.relative(root, path));
}
