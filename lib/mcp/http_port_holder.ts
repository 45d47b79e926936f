/**
 * Another user on our port. A client configured with a server's URL and token sends the token to whatever
 * listens there: a local user who took the port first (while no server ran, or before this one started)
 * captures it. When the port turns out to be another user's, the token clients sent there is replaced
 * (the port's token file, http_token.ts) and a loud line names the uid and the port. Who listens is known on
 * Linux when the server may run `cat` (lib/platform/port_listeners.ts: Deno reads nothing under /proc/<pid>
 * without --allow-all); elsewhere the line says it cannot tell, and how to rotate by hand.
 * @module
 */
import { type HttpAuth, TOKEN_ENV } from "./serve_args.ts";
import type { ListenAddress } from "./http_guard.ts";
import { rotateToken, tokenFilePath } from "./http_token.ts";
import { type PortListener, portListeners } from "../platform/mod.ts";
import { ownUid } from "../fs/private_dir.ts";
import { log } from "../log.ts";

type Env = Record<string, string | undefined>;

/** Says why `listen` cannot be bound (AddrInUse), after rotating the token when another user holds it. */
export async function reportPortInUse(listen: ListenAddress, auth: HttpAuth, env: Env): Promise<void> {
  const where = `Cannot listen on ${listen.hostname}:${listen.port}: the port is in use`;
  const holders = await whoListens(listen.port);
  if (holders === undefined) {
    log.error(`${where}; this server cannot see by whom${manualRotation(auth, env, listen.port)}`);
  } else if (holders.others.length === 0) {
    log.error(`${where}${holders.mine ? " (by a process of this user)" : ""}`);
  } else {
    const rotated = await rotate(auth, env, listen.port);
    log.error(
      `WARNING: ${where} by another user (${describe(holders.others)}). ${rotated}. Stop that ` +
        "program or use another port before giving clients a new token",
    );
  }
}

/**
 * After binding `port`: another user listening on it at another address (`[::1]` beside our `127.0.0.1`)
 * gets the clients whose URL leads there (`localhost`, say), and their token. Rotates it and says so.
 */
export async function warnOfPortSharers(port: number, auth: HttpAuth, env: Env): Promise<void> {
  const holders = await whoListens(port);
  if (!holders?.others.length) return;
  const rotated = await rotate(auth, env, port);
  log.error(
    `WARNING: another user (${describe(holders.others)}) also listens on port ${port}: a client ` +
      `that reaches it instead of this server hands it its token. ${rotated}. Give clients this server's ` +
      "exact address (127.0.0.1, not localhost)",
  );
}

/** The listeners on `port`: whether one is ours, and those of other users; undefined when unknown. */
async function whoListens(port: number): Promise<{ mine: boolean; others: PortListener[] } | undefined> {
  const [listeners, uid] = await Promise.all([
    portListeners(port).catch(() => undefined),
    ownUid().catch(() => null),
  ]);
  if (listeners === undefined || uid === null) return undefined;
  return {
    mine: listeners.some((listener) => listener.uid === uid),
    others: listeners.filter((listener) => listener.uid !== uid),
  };
}

/** Replaces the token another user may have captured; says what was done, or what the user must do. */
async function rotate(auth: HttpAuth, env: Env, port: number): Promise<string> {
  const captured = "Any client that connected there sent it this port's token";
  if (auth.kind === "none") return "Clients that connect there talk to that program, not to this server";
  if (auth.kind === "env") return `${captured}: set a new ${TOKEN_ENV}, the old one is no longer secret`;
  const file = tokenFilePath(env, port);
  if (file === undefined) return `${captured}`;
  try {
    await rotateToken(file);
    return `${captured}, so "${file}" now holds a new token and the old one opens nothing`;
  } catch (error) {
    return `${captured}, and "${file}" could not be replaced (${(error as Error).message}): delete it`;
  }
}

/** How to rotate by hand when nobody can tell who holds the port. */
function manualRotation(auth: HttpAuth, env: Env, port: number): string {
  if (auth.kind === "none") return "";
  const what = auth.kind === "env" ? `set a new ${TOKEN_ENV}` : `delete "${tokenFilePath(env, port)}"`;
  return `; if another user may hold it, ${what}: clients that connected there sent it their token`;
}

/** `uid 65534 on 127.0.0.1`, each listener once. */
function describe(listeners: PortListener[]): string {
  return [...new Set(listeners.map((listener) => `uid ${listener.uid} on ${listener.address}`))].join(", ");
}
