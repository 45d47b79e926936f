/**
 * edit-mcp: exact-then-fuzzy text edits and atomic whole-file writes, replacing the built-in Edit/Create tools.
 * Permissions: --allow-read and --allow-write (workspace files, the file locks in /tmp/continue-mcp-locks-<uid>),
 * --allow-env (MCP_WORKSPACE, MCP_ALLOW_DIRS, EDIT_MAX_BYTES, HOME).
 * @module
 */
import { serve } from "../../lib/mcp/serve.ts";
import { manifestOf } from "../../lib/mcp/manifest.ts";
import server from "./server.json" with { type: "json" };
import tools from "./tools.json" with { type: "json" };

// The handshake is answered from the committed files; the server's modules load after it (cold start).
await serve(async () => (await import("./boot.ts")).boot(), { manifest: manifestOf("edit", server, tools) });
