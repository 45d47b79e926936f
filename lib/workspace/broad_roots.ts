/**
 * Workspace roots too broad to confine anything: the whole file system, a drive, the home folder or a folder
 * holding it, the folder of every user's home (`/home`, `C:\Users`). A client declaring `file:///` (or
 * `MCP_WORKSPACE=/`) would otherwise open /etc/shadow, ~/.ssh and every other user's files to the tools.
 * Also refused: a root Deno will not let the server open (`/proc`, `/dev`, `/sys`; ripgrep, which Deno does
 * not confine, would walk it) and a client root that is no local file URL (`file://other-host/etc` would
 * be read as `/etc`). Such a root is dropped with a log line, wherever it comes from, and never replaced
 * by something else: with no root left, tools say why.
 * @module
 */
import { log } from "../log.ts";
import { NOT_CAPABLE_REASON, ToolError } from "../mcp/errors.ts";
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
    const reason = platform.tooBroadRoot(root, homes) ?? closedToDeno(root);
    if (reason === null) {
      kept.push(root);
      continue;
    }
    refused.push({ root, reason });
    log.info(`workspace: ignoring the folder "${toSlashes(root)}" from ${from}: it ${reason}`);
  }
  return { kept, refused };
}

/** The local paths of root URIs (`file:///…`), and those that name none, refused with the reason. */
export function rootPaths(
  uris: readonly string[],
  from: string,
): { paths: string[]; refused: RefusedRoot[] } {
  const paths: string[] = [];
  const refused: RefusedRoot[] = [];
  for (const uri of uris) {
    try {
      paths.push(platform.fileUrlToPath(uri));
    } catch (error) {
      const reason = error instanceof Error ? error.message : "is not a valid file URL";
      refused.push({ root: uri, reason });
      log.info(`workspace: ignoring the root "${uri}" from ${from}: it ${reason}`);
    }
  }
  return { paths, refused };
}

/** Why Deno will not open `root` (a system folder it keeps from any server without --allow-all), or null. */
function closedToDeno(root: string): string | null {
  try {
    Deno.statSync(root);
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) return NOT_CAPABLE_REASON;
  }
  return null;
}

/** The error of a tool that needs a path while no usable root is left; `action` is `Cannot use "x"`. */
export function noRootError(action: string, refused: readonly RefusedRoot[]): ToolError {
  const first = refused[0];
  const why = first
    ? `the workspace root "${toSlashes(first.root)}" ${first.reason}`
    : "there is no workspace root";
  return new ToolError("permission_denied", `${action}: ${why}; open a project folder or set MCP_WORKSPACE`);
}
