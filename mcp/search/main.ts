/**
 * search-mcp: ripgrep-backed search_grep and search_glob over the workspace.
 * Permissions: --allow-read (workspace, the bundled ripgrep), --allow-run (ripgrep), --allow-env
 * (MCP_WORKSPACE, MCP_ALLOW_DIRS, RG_PATH, SEARCH_MCP_TIMEOUT_S), --allow-write (only to copy the bundled
 * ripgrep out of a compiled binary into the cache folder), --allow-sys (home folder lookup).
 * @module
 */
import { serve } from "../../lib/mcp/serve.ts";
import { boot } from "./boot.ts";

await serve(boot);
