/**
 * search-mcp: ripgrep-backed search_grep and search_glob over the workspace.
 * Permissions: --allow-read (workspace, the bundled ripgrep), --allow-run (ripgrep), --allow-env
 * (MCP_WORKSPACE, MCP_ALLOW_DIRS, RG_PATH, SEARCH_MCP_TIMEOUT_S), --allow-write (only to copy the bundled
 * ripgrep out of a compiled binary into a private cache folder), --allow-sys (home folder lookup).
 * @module
 */
import { serve } from "../../lib/mcp/serve.ts";
import { manifestOf } from "../../lib/mcp/manifest.ts";
import server from "./server.json" with { type: "json" };
import tools from "./tools.json" with { type: "json" };

// The handshake is answered from the committed files; the server's modules load after it (cold start).
await serve(async () => (await import("./boot.ts")).boot(), {
  manifest: manifestOf("search", server, tools),
});
