/** The notes server's tool table: list, read, write, delete. */
import { z } from "zod";
import { defineTool, type ToolDefinition } from "../../lib/mcp/tool.ts";
import { ToolError, toToolError } from "../../lib/mcp/errors.ts";
import type { Workspace } from "../../lib/workspace/workspace.ts";
import { capText } from "../../lib/text/cap.ts";
import { NoteStore } from "./store.ts";
import { findRepoRoot, likelyRepoRoot, NOTES_DIR } from "./repo_root.ts";
import { formatIndex } from "./listing.ts";
import { readHeader } from "./read_header.ts";
import { validateSlug } from "./slug.ts";

/** What the notes tools need. */
export interface NotesDeps {
  workspace: Workspace;
  /** Home folders: never a notes location. */
  homes?: readonly string[];
  now?: () => Date;
}

/** The most notes one notes_read returns. */
export const MAX_READ_SLUGS = 20;
/** Characters of one note shown by notes_read (a note the server wrote is at most 64 KiB). */
const READ_CAP = 70_000;

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const DESTRUCTIVE = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
};

/** The tools, closed over one store. */
export function createTools(deps: NotesDeps): ToolDefinition[] {
  const store = new NoteStore({
    locateRoot: async () => {
      await deps.workspace.ready();
      return await findRepoRoot(deps.workspace.primary, { homes: deps.homes });
    },
    likelyRoot: async () => {
      await deps.workspace.ready();
      return likelyRepoRoot(deps.workspace.primary, { homes: deps.homes });
    },
    now: deps.now,
  });
  const guard = async <T>(action: string, task: () => Promise<T>): Promise<T> => {
    try {
      return await task();
    } catch (error) {
      throw toToolError(error, action);
    }
  };
  return [
    defineTool({
      name: "notes_list",
      description:
        "Index of this repo's notes (agent memory), one line each: slug — title — summary (tags). " +
        "Newest first, or best match for query. Read the relevant ones with notes_read.",
      input: {
        query: z.string().optional(),
        tag: z.string().optional(),
        offset: z.number().min(0).optional(),
      },
      annotations: READ_ONLY,
      run: (input) =>
        guard(
          "Cannot list notes",
          async () => formatIndex(await store.list(), { ...input, folder: `${NOTES_DIR}/` }),
        ),
    }),
    defineTool({
      name: "notes_read",
      description: "Full text of notes, front matter included.",
      input: { slug: z.union([z.string(), z.array(z.string())]).describe("One slug or a list") },
      annotations: READ_ONLY,
      run: ({ slug }) => guard("Cannot read notes", () => readNotes(store, toSlugList(slug))),
    }),
    defineTool({
      name: "notes_write",
      description: "Create or replace a markdown note; mode append adds a dated section. The server keeps " +
        "front matter (summary defaults to the first sentence).",
      input: {
        slug: z.string().optional().describe("a-z0-9 and hyphens; default from title"),
        body: z.string(),
        title: z.string().optional(),
        summary: z.string().optional(),
        tags: z.array(z.string()).optional(),
        mode: z.enum(["replace", "append"]).optional(),
        expected_updated: z.string().optional().describe("updated from notes_read; refuses if it changed"),
      },
      annotations: DESTRUCTIVE,
      run: (input) =>
        guard("Cannot write note", async () => {
          const result = await store.write({ ...input, expectedUpdated: input.expected_updated });
          const verb = { created: "Created", replaced: "Replaced", appended: "Appended to" }[result.action];
          return `${verb} note "${result.slug}" (${result.path}, ${result.size} bytes, updated ${result.updated})`;
        }),
    }),
    defineTool({
      name: "notes_delete",
      description: "Delete a note.",
      input: { slug: z.string() },
      annotations: { ...DESTRUCTIVE, idempotentHint: true },
      run: ({ slug }) =>
        guard("Cannot delete note", async () => {
          const deleted = await store.delete(slug);
          return `Deleted note "${deleted.slug}" (${deleted.path}): ${deleted.title}`;
        }),
    }),
  ];
}

/** `"a"`, `["a","b"]`, `"a, b"` or a JSON-encoded list → validated slugs, duplicates dropped. */
function toSlugList(value: string | string[]): string[] {
  let list: unknown = value;
  if (typeof value === "string" && value.trim().startsWith("[")) {
    try {
      list = JSON.parse(value);
    } catch {
      // Not JSON after all: read it as a plain list.
    }
  }
  const items = (Array.isArray(list) ? list.map(String) : String(list).split(/[\s,]+/))
    .map((item) => item.trim()).filter(Boolean);
  if (!items.length) throw new ToolError("invalid_argument", "Cannot read notes: give a slug");
  if (items.length > MAX_READ_SLUGS) {
    throw new ToolError(
      "invalid_argument",
      `Cannot read ${items.length} notes at once: the limit is ${MAX_READ_SLUGS}; read them in batches`,
    );
  }
  return [...new Set(items.map(validateSlug))];
}

async function readNotes(store: NoteStore, slugs: string[]): Promise<string> {
  const parts: string[] = [];
  let missing = 0;
  for (const slug of slugs) {
    try {
      const note = await store.read(slug);
      const text = capText(note.text.trimEnd(), READ_CAP);
      parts.push(`${readHeader(slug, note.version)}\n${text}`);
    } catch (error) {
      if (!(error instanceof ToolError) || slugs.length === 1) throw error;
      missing++;
      parts.push(`=== ${slug}: ${error.message}`);
    }
  }
  if (missing === slugs.length) {
    throw new ToolError(
      "not_found",
      `Cannot read notes ${
        slugs.map((slug) => `"${slug}"`).join(", ")
      }: none exists; notes_list shows the notes that exist`,
    );
  }
  return parts.join("\n\n");
}
