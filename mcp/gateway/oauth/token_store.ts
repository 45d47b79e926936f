/**
 * Per-server OAuth state on disk: the registered client and its tokens, one JSON file per server URL in
 * the user's config folder (`<config>/continue-mcp/oauth/<sha-256 of the URL>.json`), never in a
 * workspace. Files are mode 0600 in a 0700 folder and replaced atomically (write a temp file, rename), so
 * a reader sees the old or the new file, never half of one. Nothing here logs a token.
 * @module
 */
import { join } from "node:path";
import { userConfigDir } from "../../../lib/platform/mod.ts";
import type { OAuthClientInformationMixed, OAuthTokens } from "../../../lib/mcp/sdk_client.ts";

/** Tokens as stored: the SDK's, plus when the access token expires (ms since the epoch). */
export type StoredTokens = OAuthTokens & { expires_at?: number };

/** What is kept for one server. */
export interface StoredAuth {
  /** The server URL the file belongs to (the file name is its hash). */
  serverUrl?: string;
  client?: OAuthClientInformationMixed;
  tokens?: StoredTokens;
}

/** The folder tokens live in for this user, or undefined when no config folder can be found. */
export function defaultTokenDir(env: Record<string, string | undefined>): string | undefined {
  const home = userConfigDir(env);
  return home === undefined ? undefined : join(home, "continue-mcp", "oauth");
}

/** The OAuth files of one folder. */
export class TokenStore {
  constructor(readonly dir: string) {}

  /** The file of `serverUrl`: its SHA-256, so the URL (which may carry a tenant) is not the name. */
  async fileOf(serverUrl: string): Promise<string> {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(serverUrl));
    const hex = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
    return join(this.dir, `${hex.slice(0, 32)}.json`);
  }

  /** What is stored for `serverUrl`; nothing (or an unreadable file) reads as `{}`. */
  async read(serverUrl: string): Promise<StoredAuth> {
    try {
      const parsed = JSON.parse(await Deno.readTextFile(await this.fileOf(serverUrl)));
      return typeof parsed === "object" && parsed !== null && parsed.serverUrl === serverUrl ? parsed : {};
    } catch (error) {
      if (error instanceof Deno.errors.NotFound || error instanceof SyntaxError) return {};
      throw error;
    }
  }

  /** Applies `change` to what is stored and writes the result atomically with mode 0600. */
  async update(serverUrl: string, change: (stored: StoredAuth) => StoredAuth): Promise<void> {
    const next = { ...change(await this.read(serverUrl)), serverUrl };
    const file = await this.fileOf(serverUrl);
    await Deno.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const temp = `${file}.${crypto.randomUUID()}.tmp`;
    try {
      // createNew + mode: the file is private from its first byte (no window where it is world-readable).
      await Deno.writeTextFile(temp, JSON.stringify(next, null, 2), { createNew: true, mode: 0o600 });
      await Deno.rename(temp, file);
    } catch (error) {
      await Deno.remove(temp).catch(() => {});
      throw error;
    }
  }
}
