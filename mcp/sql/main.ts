/**
 * sql-mcp: sql_format and sql_lint backed by sqruff, or sqlfluff when sqruff is not installed.
 * Permissions: --allow-read (workspace, house configs), --allow-write (temp folder, write: true),
 * --allow-env (MCP_WORKSPACE, PATH, SQL_MCP_*), --allow-run (the backend).
 * @module
 */
import { serve } from "../../lib/mcp/serve.ts";
import { manifestOf } from "../../lib/mcp/manifest.ts";
import server from "./server.json" with { type: "json" };
import tools from "./tools.json" with { type: "json" };

// The handshake is answered from the committed files; the server's modules load after it (cold start). At
// the first boot, in-place writes that a killed server left unfinished are completed in the background.
let recovery: Promise<void> | undefined;
await serve(async () => {
  recovery ??= import("../../lib/fs/recover.ts").then((module) => module.recoverInterruptedWrites());
  return (await import("./boot.ts")).boot();
}, { manifest: manifestOf("sql", server, tools) });
