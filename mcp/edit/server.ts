/** The edit server: exact-then-fuzzy edits and atomic whole-file writes inside the workspace. */
import meta from "./server.json" with { type: "json" };
import { createMcpServer, type McpServerHandle } from "../../lib/mcp/server.ts";
import type { Workspace } from "../../lib/workspace/workspace.ts";
import { createTools } from "./tools.ts";
import { FileLocks } from "../../lib/fs/file_lock.ts";

/** Default size limit of files edit_file and edit_write read: 64 MiB. */
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/** What the edit server needs. */
export interface EditServerOptions {
  workspace: Workspace;
  /** Files above this size are refused; default 64 MiB. */
  maxBytes?: number;
}

/** Builds the edit server; no I/O until it is connected. */
export function createServer(options: EditServerOptions): McpServerHandle {
  return createMcpServer({
    name: "edit",
    instructions: meta.instructions,
    tools: createTools({
      workspace: options.workspace,
      locks: new FileLocks(),
      maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
    }),
    workspace: options.workspace,
  });
}
