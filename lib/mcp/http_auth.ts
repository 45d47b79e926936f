/**
 * Picks HTTP mode's bearer token (`MCP_HTTP_TOKEN`, else this user's token file for the port) and says on
 * stderr how a client passes it, never the token itself: stderr ends up in client logs other people read.
 * @module
 */
import { type HttpAuth, NO_AUTH_FLAG, TOKEN_ENV } from "./serve_args.ts";
import { readOrCreateToken, TokenFileError, tokenFilePath } from "./http_token.ts";
import { dirname, join } from "node:path";
import { log } from "../log.ts";

/**
 * The token every request to the server on `port` (the port bound) must carry; undefined only with
 * `--no-auth`. Throws TokenFileError.
 */
export async function resolveToken(
  auth: HttpAuth,
  env: Record<string, string | undefined>,
  port: number,
): Promise<string | undefined> {
  if (auth.kind === "none") {
    log.error(
      `WARNING: ${NO_AUTH_FLAG}: no bearer token, so every local user and process can call this server's ` +
        "tools with your rights",
    );
    return undefined;
  }
  if (auth.kind === "env") {
    log.info(`Clients must send "Authorization: Bearer <the value of ${TOKEN_ENV}>"`);
    return auth.token;
  }
  const file = tokenFilePath(env, port);
  if (file === undefined) {
    throw new TokenFileError(
      `Cannot find this user's config folder for the HTTP token file (HOME, XDG_CONFIG_HOME or APPDATA ` +
        `unset): set ${TOKEN_ENV}`,
    );
  }
  const token = await readOrCreateToken(file);
  log.info(`Clients must send "Authorization: Bearer <contents of ${file}>" (delete the file to rotate it)`);
  // Before one file per port, one file served every port: its clients now get 401 and should be told why.
  const shared = join(dirname(file), "http-token");
  if (await Deno.lstat(shared).then(() => true, () => false)) {
    log.info(`"${shared}" is no longer read (each port has its own token file): delete it`);
  }
  return token;
}
