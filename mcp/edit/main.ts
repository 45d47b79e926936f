/**
 * edit-mcp: exact-then-fuzzy text edits and atomic whole-file writes, replacing the built-in Edit/Create tools.
 * Permissions: --allow-read and --allow-write (workspace files, the file locks in the temp folder),
 * --allow-env (MCP_WORKSPACE, MCP_ALLOW_DIRS, EDIT_MAX_BYTES, TMPDIR/USER for the locks).
 * @module
 */
import { serve } from "../../lib/mcp/serve.ts";
import { boot } from "./boot.ts";

await serve(boot);
