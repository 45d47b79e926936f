/**
 * notes-mcp: repo-local agent memory, one markdown file per note under `<repo-root>/.continue-notes/`.
 * Permissions: --allow-read and --allow-write (the notes folder, the file locks in the temp folder),
 * --allow-env (MCP_WORKSPACE, MCP_ALLOW_DIRS, HOME/USERPROFILE to keep notes out of the home folder,
 * TMPDIR/USER for the locks).
 * @module
 */
import { serveStdio } from "../../lib/mcp/serve.ts";
import { Workspace } from "../../lib/workspace/workspace.ts";
import { homeFolders } from "./repo_root.ts";
import { createServer } from "./server.ts";

await serveStdio(createServer({ workspace: Workspace.fromEnv(), homes: homeFolders(Deno.env.toObject()) }));
