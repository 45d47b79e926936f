/**
 * hello-mcp: proof that the wiring works (ping, echo, whoami).
 * Permissions: --allow-read (workspace roots), --allow-env (MCP_WORKSPACE, MCP_ALLOW_DIRS).
 * @module
 */
import { serveStdio } from "../../lib/mcp/serve.ts";
import { Workspace } from "../../lib/workspace/workspace.ts";
import { createServer } from "./server.ts";

await serveStdio(createServer({ workspace: Workspace.fromEnv() }));
