/**
 * sql-mcp: sql_format and sql_lint backed by sqruff, or sqlfluff when sqruff is not installed.
 * Permissions: --allow-read (workspace, house configs), --allow-write (temp folder, write: true),
 * --allow-env (MCP_WORKSPACE, PATH, SQL_MCP_*), --allow-run (the backend).
 * @module
 */
import { serve } from "../../lib/mcp/serve.ts";
import { boot } from "./boot.ts";

await serve(boot);
