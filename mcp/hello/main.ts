/**
 * hello-mcp: proof that the wiring works (ping, echo, whoami).
 * Permissions: --allow-read (workspace roots), --allow-env (MCP_WORKSPACE, MCP_ALLOW_DIRS).
 * @module
 */
import { serve } from "../../lib/mcp/serve.ts";
import { boot } from "./boot.ts";

await serve(boot);
