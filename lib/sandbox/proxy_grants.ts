/**
 * The domains a user allowed "always for this workspace" when the proxy asked: one JSON file per workspace
 * in the user's config folder (`<config>/continue-mcp/sandbox-domains/<sha-256 of the workspace>.json`),
 * never in the workspace, where a job or a cloned repository could add to it. The folder must be private
 * (lib/fs/private_dir.ts); a file that is not (a link, another owner, open to others) is refused with the
 * reason, never read. Files are replaced atomically (a 0600 temp file, then a rename).
 * @module
 */
import { join } from "node:path";
import { sha256Hex } from "../fs/sha256.ts";
import { checkPrivateFile, ensurePrivateDir } from "../fs/private_dir.ts";
import { normalizeHost } from "./proxy_domains.ts";

/** A workspace's grants are a short list a person answered for, not a registry dump. */
const MAX_HOSTS = 200;

/** The folder of the grant files, given the user's config folder (lib/platform's `userConfigDir`). */
export function grantsDir(configDir: string): string {
  return join(configDir, "continue-mcp", "sandbox-domains");
}

/** The hosts allowed for good in `workspace` (a real path), stored under `dir`; none when no file exists. */
export async function readGrants(dir: string, workspace: string): Promise<string[]> {
  if (!await ensurePrivateDir(dir, { create: false })) return [];
  const file = await fileOf(dir, workspace);
  if (!await checkPrivateFile(file)) return [];
  try {
    const parsed = JSON.parse(await Deno.readTextFile(file));
    // A file copied from another workspace's name does not grant anything here.
    if (parsed?.workspace !== workspace || !Array.isArray(parsed.hosts)) return [];
    return parsed.hosts.filter((host: unknown) => typeof host === "string" && normalizeHost(host) === host)
      .slice(0, MAX_HOSTS);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof SyntaxError) return [];
    throw error;
  }
}

/** Adds `host` to the hosts allowed for good in `workspace`. */
export async function addGrant(dir: string, workspace: string, host: string): Promise<void> {
  const normalized = normalizeHost(host);
  if (!normalized) throw new Error(`Cannot allow "${host}": it is not a host name`);
  const hosts = await readGrants(dir, workspace);
  if (hosts.includes(normalized)) return;
  if (hosts.length >= MAX_HOSTS) {
    throw new Error(`Cannot allow "${host}": this workspace already has ${MAX_HOSTS} allowed domains`);
  }
  await ensurePrivateDir(dir, { create: true });
  const file = await fileOf(dir, workspace);
  const temp = `${file}.${crypto.randomUUID()}.tmp`;
  const text = JSON.stringify({ workspace, hosts: [...hosts, normalized] }, null, 2);
  try {
    // createNew + mode: private from its first byte, and a planted link at the temp name is not followed.
    await Deno.writeTextFile(temp, text, { createNew: true, mode: 0o600 });
    await Deno.rename(temp, file);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

async function fileOf(dir: string, workspace: string): Promise<string> {
  return join(dir, `${await sha256Hex(new TextEncoder().encode(workspace))}.json`);
}
