/**
 * The setuid and setgid bits a write would take from a file for good. When a user other than root writes a
 * file, the kernel clears its setuid bit, and its setgid bit (Linux: when the file is group-executable or the
 * writer is not in its group; macOS and the BSDs: always). Only the owner may set them again (chmod), and
 * setgid only as a member of the file's group: Linux clears it from a chmod by anyone else, the BSDs refuse
 * it. A replacement by rename cannot get such a bit either. So a write the user could not undo this way is
 * refused before a byte changes, rather than losing the bit silently: the owner can clear it first when the
 * write should go ahead.
 * @module
 */
import { join } from "node:path";
import { ToolError } from "../mcp/errors.ts";
import { ownUid } from "./private_dir.ts";

const SETUID = 0o4000;
const SETGID = 0o2000;

/** Who writes, as far as these bits go. */
export interface Writer {
  /** The writer's uid; 0 (root) may set any bit again. */
  uid: number;
  /** Whether the writer is in the file's group. */
  inGroup: boolean;
}

/**
 * The setuid/setgid bits of `mode` that a write by `writer` to a file owned by `owner` would clear and that
 * the writer could not set again (0 when none). Any bit counts as cleared: which ones the kernel clears
 * varies by OS, and a refusal is the safe side.
 */
export function bitsLostByWrite(mode: number, owner: number, writer: Writer): number {
  const bits = mode & (SETUID | SETGID);
  if (bits === 0 || writer.uid === 0) return 0;
  if (writer.uid !== owner) return bits;
  return writer.inGroup ? 0 : bits & SETGID;
}

/**
 * Throws `permission_denied` when writing the file `info` describes would clear a setuid or setgid bit this
 * process could not set again. `probeDir` is a private folder of ours (the lock folder), where a probe file
 * tells the uid and whether the file's group is one of ours without `--allow-sys`.
 */
export async function refuseLosingSetIdBits(
  info: Deno.FileInfo,
  probeDir: string,
  rules: { action: string; display: string },
): Promise<void> {
  const { mode, uid: owner, gid } = info;
  if (mode === null || owner === null || gid === null || (mode & (SETUID | SETGID)) === 0) return;
  const uid = await ownUid(probeDir);
  if (uid === null) return;
  const inGroup = uid === owner && (mode & SETGID) !== 0 ? await isInGroup(gid, probeDir) : false;
  const lost = bitsLostByWrite(mode, owner, { uid, inGroup });
  if (lost === 0) return;
  const names = [lost & SETUID ? "setuid" : "", lost & SETGID ? "setgid" : ""].filter(Boolean);
  const flags = [lost & SETUID ? "u-s" : "", lost & SETGID ? "g-s" : ""].filter(Boolean).join(",");
  const octal = (mode & 0o7777).toString(8).padStart(4, "0");
  const [why, who] = uid === owner
    ? ["not in its group", "clear"]
    : ["only its owner can", "its owner can clear"];
  throw new ToolError(
    "permission_denied",
    `${rules.action}: writing it would clear its ${names.join(" and ")} bit${names.length > 1 ? "s" : ""} ` +
      `(mode ${octal}), which this user cannot set again (${why}); nothing was written; ${who} the ` +
      `bit${
        names.length > 1 ? "s" : ""
      } first (chmod ${flags} "${rules.display}") if the write should go ahead`,
  );
}

/** Whether this process may give a file the group `gid`: an owner may chown to a group only as its member. */
async function isInGroup(gid: number, probeDir: string): Promise<boolean> {
  const token = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0"))
    .join("");
  const probe = join(probeDir, `group-${token}.probe`);
  const file = await Deno.open(probe, { write: true, createNew: true, mode: 0o600 });
  file.close();
  try {
    if ((await Deno.stat(probe)).gid === gid) return true;
    await Deno.chown(probe, null, gid);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.PermissionDenied) return false;
    throw error;
  } finally {
    await Deno.remove(probe).catch(() => {});
  }
}
