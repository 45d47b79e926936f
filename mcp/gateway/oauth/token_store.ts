/**
 * Per-entry OAuth state on disk: the registered client and its tokens, one JSON file per config entry in
 * the user's config folder (`<config>/continue-mcp/oauth/<sha-256 of the entry's identity>.json`), never in
 * a workspace. An entry is its config file (symbolic links resolved), its name and its URL: two entries
 * reaching one server (two accounts) never share tokens, and a renamed or moved entry is authorised anew.
 * The folder must be private (lib/fs/private_dir.ts: 0700, this user's, not a link) and each file 0600 and
 * not a link, or the store refuses with the reason; files are replaced atomically (a temp file created
 * 0600, then renamed), so a reader sees the old or the new file, never half of one. Files of the earlier
 * URL-keyed kind (`<first 32 hex of the URL's sha-256>.json`) are read for no entry; authorising an entry
 * removes the one for its URL. Nothing here logs a token.
 * @module
 */
import { join } from "node:path";
import { userConfigDir } from "../../../lib/platform/mod.ts";
import { sha256Hex } from "../../../lib/fs/sha256.ts";
import { checkPrivateFile, ensurePrivateDir, NotPrivateError } from "../../../lib/fs/private_dir.ts";
import { ToolError } from "../../../lib/mcp/errors.ts";
import type { OAuthClientInformationMixed, OAuthTokens } from "../../../lib/mcp/sdk_client.ts";

/** Tokens as stored: the SDK's, plus when the access token expires (ms since the epoch). */
export type StoredTokens = OAuthTokens & { expires_at?: number };

/** What is kept for one entry. */
export interface StoredAuth {
  client?: OAuthClientInformationMixed;
  tokens?: StoredTokens;
}

/** The config entry tokens belong to. */
export interface TokenOwner {
  /** The config file it is written in (absolute); unset for a config that came from no file. */
  configFile?: string;
  /** Its name in `mcpServers`. */
  server: string;
  url: string;
}

/** The owner as written into its file, the config file's symbolic links resolved. */
interface StoredOwner {
  config: string;
  server: string;
  url: string;
}

const encoder = new TextEncoder();

/** The folder tokens live in for this user, or undefined when no config folder can be found. */
export function defaultTokenDir(env: Record<string, string | undefined>): string | undefined {
  const home = userConfigDir(env);
  return home === undefined ? undefined : join(home, "continue-mcp", "oauth");
}

/** The OAuth files of one folder. */
export class TokenStore {
  constructor(readonly dir: string) {}

  /** The file of `owner`: the SHA-256 of its identity (64 hex, never a name of the URL-keyed kind). */
  async fileOf(owner: TokenOwner): Promise<string> {
    const stored = await storedOwner(owner);
    const hex = await sha256Hex(
      encoder.encode(JSON.stringify(["entry", stored.config, stored.server, stored.url])),
    );
    return join(this.dir, `${hex}.json`);
  }

  /** What is stored for `owner`; nothing (or an unreadable file, or another owner's) reads as `{}`. */
  async read(owner: TokenOwner): Promise<StoredAuth> {
    const file = await this.fileOf(owner);
    if (!await this.#private(false) || !await this.#privateFile(file)) return {};
    try {
      const parsed = JSON.parse(await Deno.readTextFile(file));
      if (typeof parsed !== "object" || parsed === null) return {};
      if (JSON.stringify(parsed.owner) !== JSON.stringify(await storedOwner(owner))) return {};
      const { client, tokens } = parsed as StoredAuth;
      return { ...(client ? { client } : {}), ...(tokens ? { tokens } : {}) };
    } catch (error) {
      if (error instanceof Deno.errors.NotFound || error instanceof SyntaxError) return {};
      throw error;
    }
  }

  /** Applies `change` to what is stored and writes the result atomically with mode 0600. */
  async update(owner: TokenOwner, change: (stored: StoredAuth) => StoredAuth): Promise<void> {
    const { client, tokens } = change(await this.read(owner));
    const next = {
      owner: await storedOwner(owner),
      ...(client ? { client } : {}),
      ...(tokens ? { tokens } : {}),
    };
    const file = await this.fileOf(owner);
    await this.#private(true);
    const temp = `${file}.${crypto.randomUUID()}.tmp`;
    try {
      // createNew + mode: private from its first byte, and a planted link at the temp name is not followed.
      await Deno.writeTextFile(temp, JSON.stringify(next, null, 2), { createNew: true, mode: 0o600 });
      // rename replaces a link at `file` itself, never what it points at.
      await Deno.rename(temp, file);
    } catch (error) {
      await Deno.remove(temp).catch(() => {});
      throw error;
    }
  }

  /** Removes the URL-keyed file an earlier gateway kept for `url`, if there is one for exactly that URL. */
  async removeLegacy(url: string): Promise<void> {
    const file = join(this.dir, `${(await sha256Hex(encoder.encode(url))).slice(0, 32)}.json`);
    if (!await this.#private(false) || !await this.#privateFile(file).catch(() => false)) return;
    const parsed = await Deno.readTextFile(file).then(JSON.parse).catch(() => undefined);
    if (parsed?.serverUrl === url) await Deno.remove(file).catch(() => {});
  }

  async #private(create: boolean): Promise<boolean> {
    try {
      return await ensurePrivateDir(this.dir, { create });
    } catch (error) {
      throw refusal(error);
    }
  }

  async #privateFile(file: string): Promise<boolean> {
    try {
      return await checkPrivateFile(file);
    } catch (error) {
      throw refusal(error);
    }
  }
}

async function storedOwner(owner: TokenOwner): Promise<StoredOwner> {
  const file = owner.configFile;
  // One config reached by two paths (a symbolic link from a dotfiles folder) is one identity.
  const config = file === undefined ? "" : await Deno.realPath(file).catch(() => file);
  return { config, server: owner.server, url: owner.url };
}

function refusal(error: unknown): unknown {
  if (!(error instanceof NotPrivateError)) return error;
  return new ToolError("permission_denied", `Cannot use the OAuth token store: ${error.message}`);
}
