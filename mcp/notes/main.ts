/**
 * notes-mcp: repo-local agent memory, one markdown file per note under `<repo-root>/.continue-notes/`.
 * Permissions: --allow-read and --allow-write (the notes folder, the file locks in the temp folder),
 * --allow-env (MCP_WORKSPACE, MCP_ALLOW_DIRS, HOME/USERPROFILE to keep notes out of the home folder,
 * TMPDIR/USER for the locks).
 * @module
 */
import { serve } from "../../lib/mcp/serve.ts";
import { boot } from "./boot.ts";

await serve(boot);
