/**
 * Whether a group is this user's alone: no other account has it as its primary group (/etc/passwd) or is
 * listed as its member (/etc/group). With the user-private-group scheme (one group per user, umask 002, the
 * default on Debian and Ubuntu for many setups) a user's folders are group-writable, yet no one else can
 * write in them; a shared primary group (`users`) with the same mode lets every member in.
 * @module
 */

/** The gids among `gids` that only `uid` holds, from the two files' text. Pure. */
export function groupsOnlyOf(uid: number, passwd: string, group: string): Set<number> {
  const accounts = passwd.split("\n").map((line) => line.split(":")).filter((fields) => fields.length >= 4);
  const me = accounts.find((fields) => Number(fields[2]) === uid)?.[0];
  if (me === undefined) return new Set();
  const shared = new Set<number>();
  for (const fields of accounts) if (fields[0] !== me) shared.add(Number(fields[3]));
  const ours = new Set<number>();
  for (const fields of group.split("\n").map((line) => line.split(":"))) {
    if (fields.length < 4 || !/^\d+$/.test(fields[2])) continue;
    const gid = Number(fields[2]);
    const members = fields[3].split(",").map((name) => name.trim()).filter(Boolean);
    if (!shared.has(gid) && members.every((name) => name === me)) ours.add(gid);
  }
  return ours;
}

let cached: Promise<ReadonlySet<number>> | undefined;

/** The groups only `uid` holds on this machine (read once); empty when the account files cannot be read. */
export function privateGroups(uid: number | null): Promise<ReadonlySet<number>> {
  if (uid === null) return Promise.resolve(new Set());
  cached ??= Promise.all([Deno.readTextFile("/etc/passwd"), Deno.readTextFile("/etc/group")]).then(
    ([passwd, group]) => groupsOnlyOf(uid, passwd, group),
    () => new Set<number>(),
  );
  return cached;
}
