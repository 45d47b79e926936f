/**
 * notes-mcp: repo-local agent memory, one markdown file per note under `<repo-root>/.continue-notes/`.
 * Permissions: --allow-read and --allow-write (the notes folder, the file locks and write journals in
 * /tmp/continue-mcp-locks-<uid> or its fallback ~/.cache/continue-mcp/locks), --allow-env (MCP_WORKSPACE,
 * MCP_ALLOW_DIRS, HOME/USERPROFILE to keep notes out of the home folder).
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
}, { manifest: manifestOf("notes", server, tools) });
