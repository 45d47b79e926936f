/**
 * fs-mcp: numbered, paged file reads; gitignore-aware folder trees (ripgrep); structured stats.
 * Permissions: --allow-read (workspace), --allow-env (MCP_WORKSPACE, MCP_ALLOW_DIRS, RG_PATH),
 * --allow-run (ripgrep for fs_list and path suggestions), --allow-sys=uid (whose folders above the
 * workspace a lookup of `.git` and ignore files may trust: lib/workspace/trusted_above.ts).
 * @module
 */
import { serve } from "../../lib/mcp/serve.ts";
import { manifestOf } from "../../lib/mcp/manifest.ts";
import server from "./server.json" with { type: "json" };
import tools from "./tools.json" with { type: "json" };

// The handshake is answered from the committed files; the server's modules load after it (cold start).
await serve(async () => (await import("./boot.ts")).boot(), { manifest: manifestOf("fs", server, tools) });
