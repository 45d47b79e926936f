/** The fs server's tool table: fs_read, fs_list, fs_stat. */
import { z } from "zod";
import { defineTool, type ToolDefinition } from "../../lib/mcp/tool.ts";
import { ToolError } from "../../lib/mcp/errors.ts";
import type { FsDeps } from "./deps.ts";
import { readFiles } from "./read.ts";
import { listTree } from "./list.ts";
import { statPath } from "./stat.ts";

/** Most paths one fs_read call takes, in an array or a JSON-encoded one. */
const MAX_PATHS = 20;

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** The tools, closed over their dependencies. */
export function createTools(deps: FsDeps): ToolDefinition[] {
  return [
    defineTool({
      name: "fs_read",
      description:
        "Read text files with line numbers; page with offset/limit, offset<0 reads the last lines. Header: size, lines, sha256 (edits' expected_sha256). Images as images.",
      input: {
        path: z.union([z.string(), z.array(z.string()).min(1).max(MAX_PATHS)]).describe(
          "File, or a list of up to 20",
        ),
        offset: z.number().optional().describe("First line, 1-based; -N: the last N lines"),
        limit: z.number().min(1).optional().describe("Lines, default 2000"),
      },
      annotations: READ_ONLY,
      run: ({ path, offset, limit }, { signal }) =>
        readFiles(deps, {
          paths: pathList(path),
          offset: offset === undefined || Math.trunc(offset) === 0 ? undefined : Math.trunc(offset),
          limit: limit === undefined ? undefined : Math.floor(limit),
        }, signal),
    }),
    defineTool({
      name: "fs_list",
      description:
        "Tree of a folder with file sizes, gitignore-aware; big folders cut with (+N more), node_modules/.git collapsed.",
      input: {
        path: z.string().optional(),
        depth: z.number().min(1).optional().describe("Default 2"),
        limit: z.number().min(1).optional().describe("Entries per folder, default 400"),
        hidden: z.boolean().optional().describe("Include dotfiles"),
        all: z.boolean().optional().describe("Include gitignored files"),
      },
      annotations: READ_ONLY,
      run: ({ path, depth, limit, hidden, all }, { signal }) =>
        listTree(deps, {
          path: path ?? ".",
          depth: Math.floor(depth ?? 2),
          limit: Math.floor(limit ?? 400),
          hidden: hidden ?? false,
          all: all ?? false,
        }, signal),
    }),
    defineTool({
      name: "fs_stat",
      description: "Type, size, line count, mtime, mode and symlink target of a path.",
      input: { path: z.string() },
      output: {
        path: z.string(),
        type: z.enum(["file", "folder", "other"]),
        size: z.number(),
        lines: z.number().optional(),
        content: z.string().optional(),
        entries: z.number().optional(),
        mtime: z.string().nullable(),
        mode: z.string().nullable(),
        symlink: z.string().optional(),
      },
      annotations: READ_ONLY,
      run: ({ path }, { signal }) => statPath(deps, path, signal),
    }),
  ];
}

/** A list, also when a model sent the list JSON-encoded in a string, held to the array form's limits. */
function pathList(path: string | string[]): string[] {
  if (Array.isArray(path)) return path;
  if (/^\s*\[/.test(path)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(path);
    } catch {
      // A file whose name starts with "[": keep it as is.
    }
    if (Array.isArray(parsed) && parsed.every((p) => typeof p === "string")) {
      // Refused exactly as the schema refuses the array form, never silently cut.
      if (parsed.length > MAX_PATHS) {
        throw new ToolError(
          "invalid_argument",
          `Cannot call fs_read: "path": too big: expected array to have <=${MAX_PATHS} items`,
        );
      }
      if (parsed.length) return parsed;
    }
  }
  return [path];
}
