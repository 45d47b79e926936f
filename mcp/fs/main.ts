/**
 * fs-mcp: numbered, paged file reads; gitignore-aware folder trees (ripgrep); structured stats.
 * Permissions: --allow-read (workspace), --allow-env (MCP_WORKSPACE, MCP_ALLOW_DIRS, RG_PATH),
 * --allow-run (ripgrep for fs_list and path suggestions).
 * @module
 */
import { serve } from "../../lib/mcp/serve.ts";
import { boot } from "./boot.ts";

await serve(boot);
