/** Shared setup of the fs server tests: a server over a temp workspace, with optional small limits. */
import { createServer } from "../../../mcp/fs/server.ts";
import type { FsLimits } from "../../../mcp/fs/deps.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { connect, type Connection } from "../../_support/connect.ts";

/** An in-memory client of an fs server rooted at `root`. */
export function fsClient(root: string, limits: Partial<FsLimits> = {}): Promise<Connection> {
  return connect(createServer({ workspace: new Workspace({ cwd: root }), limits }));
}

/** `count` numbered lines: `line 1\nline 2\n...`. */
export function numberedLines(count: number, prefix = "line "): string {
  return Array.from({ length: count }, (_, i) => `${prefix}${i + 1}\n`).join("");
}

/** The body lines of an fs_read page (without header and footer) as [number, text] pairs. */
export function pageLines(text: string): [number, string][] {
  return text.split("\n").slice(1, -1).map((line) => {
    const match = line.match(/^ *(\d+)\t(.*)$/);
    if (!match) throw new Error(`Not a numbered line: ${JSON.stringify(line)}`);
    return [Number(match[1]), match[2]];
  });
}

/** The footer (last line) of an fs_read page. */
export function footerOf(text: string): string {
  return text.split("\n").at(-1)!;
}

/** SHA-256 of bytes in hex, by WebCrypto: the independent reference for the server's hash. */
export async function webSha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}
