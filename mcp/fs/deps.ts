/** What the fs tools share: the workspace, ripgrep, the line index cache and the limits. */
import type { Workspace } from "../../lib/workspace/workspace.ts";
import type { Ripgrep } from "../../lib/ripgrep/locate.ts";
import { LineIndexCache } from "./line_index.ts";

/** Size and length limits of the fs tools. */
export interface FsLimits {
  /** Default lines per read. */
  readLines: number;
  /** Longer lines are cut. */
  lineChars: number;
  /**
   * Characters one fs_read response may hold, shared by the files of a call: ~25,000 o200k tokens of
   * numbered TypeScript (measured 3.3 characters a token), so 85,000 rather than a flat 100 KB.
   */
  readChars: number;
  /** Files up to this size are scanned whole on every read: line count, line endings and SHA-256. */
  fullScanBytes: number;
  /** Images up to this size are returned as image content. */
  imageBytes: number;
  /** fs_stat counts lines of text files up to this size. */
  statLineBytes: number;
  /** Most files fs_list takes from ripgrep before it stops and says counts are lower bounds. */
  listScanFiles: number;
  /** Characters one fs_list response may hold. */
  listChars: number;
}

/** The limits the issue asks for. */
export const DEFAULT_LIMITS: FsLimits = {
  readLines: 2000,
  lineChars: 2000,
  readChars: 85_000,
  fullScanBytes: 64 * 1024 * 1024,
  imageBytes: 5 * 1024 * 1024,
  statLineBytes: 10 * 1024 * 1024,
  listScanFiles: 200_000,
  listChars: 40_000,
};

/** Everything the fs tools depend on. */
export interface FsDeps {
  workspace: Workspace;
  /** The ripgrep to run, or null when none is installed. */
  ripgrep: () => Promise<Ripgrep | null>;
  indexes: LineIndexCache;
  limits: FsLimits;
}
