/**
 * Workspace roots too broad to confine anything: the whole file system, a drive, the home folder or a folder
 * holding it (`/home`). A client declaring `file:///` (or `MCP_WORKSPACE=/`) would otherwise open
 * /etc/shadow, ~/.ssh and every other user's files to the tools. Such a root is dropped with a log line,
 * wherever it comes from, and never replaced by something else: with no root left, tools say why.
 * @module
 */
import { log } from "../log.ts";
import { ToolError } from "../mcp/errors.ts";
import { platform, toSlashes } from "../platform/mod.ts";

/** A root that was dropped, and why (`is the whole file system`). */
export interface RefusedRoot {
  root: string;
  reason: string;
}

/** `roots` (real paths) split into the usable ones and the refused ones; `from` names their source in the log. */
export function screenRoots(
  roots: readonly string[],
  homes: readonly string[],
  from: string,
): { kept: string[]; refused: RefusedRoot[] } {
  const kept: string[] = [];
  const refused: RefusedRoot[] = [];
  for (const root of roots) {
    const reason = platform.tooBroadRoot(root, homes);
    if (reason === null) {
      kept.push(root);
      continue;
    }
    refused.push({ root, reason });
    log.info(`workspace: ignoring the folder "${toSlashes(root)}" from ${from}: it ${reason}`);
  }
  return { kept, refused };
}

/** The error of a tool that needs a path while no usable root is left; `action` is `Cannot use "x"`. */
export function noRootError(action: string, refused: readonly RefusedRoot[]): ToolError {
  const first = refused[0];
  const why = first
    ? `the workspace root "${toSlashes(first.root)}" ${first.reason}`
    : "there is no workspace root";
  return new ToolError("permission_denied", `${action}: ${why}; open a project folder or set MCP_WORKSPACE`);
}
