/** A search server over a fixture workspace, connected to an in-memory client. */
import { connect, type Connection } from "../../_support/connect.ts";
import { requireRipgrep } from "../../../lib/ripgrep/locate.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { createServer } from "../../../mcp/search/server.ts";

/** Connects a search server whose workspace is `root`. */
export function connectSearch(root: string, options: { timeoutMs?: number } = {}): Promise<Connection> {
  return connect(createServer({
    workspace: new Workspace({ cwd: root }),
    ripgrep: requireRipgrep,
    timeoutMs: options.timeoutMs ?? 30_000,
  }));
}

/** A git-looking fixture root, so ripgrep's gitignore rules apply as in a real checkout. */
export const GIT = { ".git/HEAD": "ref: refs/heads/main\n" };
