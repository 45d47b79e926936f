/** The fs server: numbered paged reads, compact trees and structured stats of workspace files. */
import meta from "./server.json" with { type: "json" };
import { createMcpServer, type McpServerHandle } from "../../lib/mcp/server.ts";
import type { Workspace } from "../../lib/workspace/workspace.ts";
import { locateRipgrep, type Ripgrep } from "../../lib/ripgrep/locate.ts";
import { DEFAULT_LIMITS, type FsLimits } from "./deps.ts";
import { LineIndexCache } from "./line_index.ts";
import { createTools } from "./tools.ts";

/** What the fs server needs; tests shrink the limits to reach big-file paths with small files. */
export interface FsOptions {
  workspace: Workspace;
  limits?: Partial<FsLimits>;
  /** Defaults to {@link locateRipgrep}. */
  ripgrep?: () => Promise<Ripgrep | null>;
}

/** Builds the fs server; no I/O until it is connected. */
export function createServer(options: FsOptions): McpServerHandle {
  return createMcpServer({
    name: "fs",
    instructions: meta.instructions,
    tools: createTools({
      workspace: options.workspace,
      ripgrep: options.ripgrep ?? (() => locateRipgrep()),
      indexes: new LineIndexCache(),
      limits: { ...DEFAULT_LIMITS, ...options.limits },
    }),
    workspace: options.workspace,
  });
}
