/**
 * Where the lock folders may be (lock_dir.ts decides which are in use), computed identically by every server
 * of one user from nothing its environment can change: the primary is named by the uid in a fixed place
 * (`/tmp` on POSIX), the fallback lies under the home that the account database gives for the uid.
 * @module
 */
import { tmpdir } from "node:os";
import { ToolError } from "../mcp/errors.ts";
import { accountHome, platform } from "../platform/mod.ts";
import { ownUid } from "./private_dir.ts";

/** The candidate lock folders of this user. */
export interface LockPlaces {
  /** `/tmp/continue-mcp-locks-<uid>` on POSIX, `<per-user temp>\continue-mcp-locks-<user>` on Windows. */
  primary: string;
  /** `<account home>/.cache/continue-mcp/locks`, or null when there is none. */
  fallback: string | null;
  /** Why there is no fallback (empty when there is one). */
  noFallback: string;
  /** Our uid; null where the OS has none (Windows). */
  uid: number | null;
}

/** The lock folders of this user. */
export async function lockPlaces(action: string): Promise<LockPlaces> {
  const parent = platform.lockParent(tmpdir());
  const uid = await lockUid(parent, action);
  const primary = platform.path.join(parent, platform.lockFolderName(uid, Deno.env.get("USERNAME")));
  return { primary, uid, ...await fallbackOf(uid) };
}

/** Our uid, probed in `parent` (where the locks go anyway) when --allow-sys is not granted. */
export async function lockUid(parent: string, action: string): Promise<number | null> {
  try {
    // The writing servers lack --allow-sys: the uid comes from a file made where the locks go anyway.
    return await ownUid(parent);
  } catch (error) {
    throw new ToolError(
      "unavailable",
      `${action}: cannot create the file locks in "${parent}" (${
        error instanceof Error ? error.message : String(error)
      }); make it writable`,
    );
  }
}

async function fallbackOf(uid: number | null): Promise<{ fallback: string | null; noFallback: string }> {
  // Windows: the primary is in the per-user temp folder, ACL'd to its user; nobody else can take its name.
  if (uid === null) return { fallback: null, noFallback: "this system has no user ids" };
  const home = await accountHome(uid);
  if (home === null) {
    return {
      fallback: null,
      noFallback: `the account database (/etc/passwd) names no home folder for uid ${uid}`,
    };
  }
  // Never created: a home of "/nonexistent" (nobody's) must stay that way.
  const info = await Deno.stat(home).catch(() => null);
  if (!info?.isDirectory) {
    return { fallback: null, noFallback: `the home folder "${home}" of uid ${uid} does not exist` };
  }
  return { fallback: platform.path.join(home, ".cache", "continue-mcp", "locks"), noFallback: "" };
}
