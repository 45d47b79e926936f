/** Starts a server entrypoint in HTTP mode (`--http 127.0.0.1:0`) and learns its URL from its stderr. */
import { dirname } from "node:path";
import { httpPermissions, listServers } from "../../tools/catalog.ts";
import { generateToken, tokenFilePath } from "../../lib/mcp/http_token.ts";
import { Client, StreamableHTTPClientTransport } from "../../lib/mcp/sdk_client.ts";
import { os } from "../../lib/platform/mod.ts";

/** A server process listening on loopback. */
export interface HttpProcess extends AsyncDisposable {
  /** `http://127.0.0.1:PORT/mcp`. */
  url: string;
  child: Deno.ChildProcess;
  /** `{ authorization: "Bearer <token>" }`, or `{}` with auth "none". */
  headers: Record<string, string>;
  /** Everything the server wrote on stderr so far. */
  stderr(): string;
  /** Stops the server (SIGTERM) and resolves to everything it wrote on stderr, to the last byte. */
  stop(): Promise<string>;
}

/**
 * Where the token comes from: "env" a fresh `MCP_HTTP_TOKEN` (the default); "file" the per-user token file,
 * with every config-home variable pointed at `configHome` so a test never touches the real home; "none"
 * `--no-auth`.
 */
export type SpawnAuth = "env" | "none" | { configHome: string };

/** Options of {@link spawnHttp}; an `env` entry set to undefined is removed from the inherited environment. */
export interface SpawnHttpOptions {
  args?: readonly string[];
  env?: Record<string, string | undefined>;
  cwd?: string;
  auth?: SpawnAuth;
  /** Runs the server through a wrapper, `["sh", "-c", 'ulimit -n 64 && exec "$@"', "sh"]` say. */
  wrapper?: readonly string[];
  /** `--http`'s address; `127.0.0.1:0` by default. */
  listen?: string;
}

/**
 * The variables that place this user's config folder, pointed at `configHome`. macOS has only HOME for it,
 * and Deno keeps its cache under HOME there too, so DENO_DIR keeps the current cache (a fresh one would
 * download every npm package again).
 */
export async function configHomeEnv(configHome: string): Promise<Record<string, string>> {
  if (os !== "darwin") return { XDG_CONFIG_HOME: configHome, APPDATA: configHome };
  return { HOME: configHome, DENO_DIR: Deno.env.get("DENO_DIR") ?? await denoDir() };
}

async function denoDir(): Promise<string> {
  const { stdout } = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stderr: "null" })
    .output();
  return JSON.parse(new TextDecoder().decode(stdout)).denoDir;
}

/**
 * The `deno run` argv of `mcp/<name>/main.ts` over HTTP: its declared permissions plus what HTTP mode adds
 * (loopback net, its uid, writing `tokenDir`).
 */
export function httpRunArgs(
  name: string,
  serverArgs: readonly string[] = [],
  tokenDir?: string,
): string[] {
  const server = listServers().find((entry) => entry.name === name);
  if (!server) throw new Error(`No server "${name}" under mcp/`);
  return [
    "run",
    "--no-prompt",
    "--quiet",
    ...server.permissions,
    ...httpPermissions(server, { net: "127.0.0.1", tokenDir }),
    server.entry,
    "--http",
    "127.0.0.1:0",
    ...serverArgs,
  ];
}

/**
 * The environment and extra arguments that give a spawned server the token of `auth`; with a token file,
 * `tokenFile(port)` is where the server on `port` keeps it.
 */
export async function authSetup(auth: SpawnAuth): Promise<{
  env: Record<string, string | undefined>;
  args: string[];
  token?: string;
  tokenFile?: (port: number) => string;
}> {
  if (auth === "none") return { env: { MCP_HTTP_TOKEN: undefined }, args: ["--no-auth"] };
  if (auth === "env") {
    const token = generateToken();
    return { env: { MCP_HTTP_TOKEN: token }, args: [], token };
  }
  const env = await configHomeEnv(auth.configHome);
  return {
    env: { ...env, MCP_HTTP_TOKEN: undefined },
    args: [],
    tokenFile: (port) => tokenFilePath(env, port)!,
  };
}

/** A port free on 127.0.0.1 right now: the OS picks it, and it is let go at once. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr;
  listener.close();
  return port;
}

/** The inherited environment with `overrides` applied (undefined removes a variable). */
export function childEnv(overrides: Record<string, string | undefined>): Record<string, string> {
  const env = Deno.env.toObject();
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/** Spawns the server and resolves once it printed the URL it listens on; throws if it exits first. */
export async function spawnHttp(name: string, options: SpawnHttpOptions = {}): Promise<HttpProcess> {
  const auth = await authSetup(options.auth ?? "env");
  const tokenDir = auth.tokenFile === undefined ? undefined : dirname(auth.tokenFile(0));
  const [command, ...wrapperArgs] = options.wrapper ?? [Deno.execPath()];
  const child = new Deno.Command(command, {
    args: [
      ...wrapperArgs,
      ...(options.wrapper ? [Deno.execPath()] : []),
      ...httpRunArgs(name, [...auth.args, ...options.args ?? []], tokenDir)
        .map((arg) => arg === "127.0.0.1:0" ? options.listen ?? arg : arg),
    ],
    cwd: options.cwd,
    env: childEnv({ ...auth.env, ...options.env }),
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let text = "";
  const listening = Promise.withResolvers<string>();
  const reading = (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) {
      text += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(text)?.[1];
      if (url) listening.resolve(url);
    }
    listening.reject(new Error(`${name}-mcp exited before listening:\n${text}`));
  })();
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch {
      // Already gone.
    }
    await child.status;
    await reading;
    return text;
  };
  const url = await listening.promise;
  // Read as a client would, from the file the server left. None there (a server that ignored it) means no
  // header: requests then go without a token, and a test expecting them refused sees what it should.
  const token = auth.tokenFile === undefined
    ? auth.token
    : await Deno.readTextFile(auth.tokenFile(Number(new URL(url).port))).then(
      (text) => text.trim(),
      () => undefined,
    );
  return {
    url,
    child,
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    stderr: () => text,
    stop,
    async [Symbol.asyncDispose]() {
      await stop();
    },
  };
}

/** An SDK client connected to `url`, sending `headers` (the bearer token) with every request. */
export async function connectHttpClient(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const client = new Client({ name: "http-test", version: "0.0.0" });
  await client.connect(transport);
  return { client, transport };
}

/** A JSON-RPC initialize request, as a client's first POST. */
export const INITIALIZE_BODY: string = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
});

/** POSTs `body` to the MCP endpoint with `headers` and the Accept header MCP asks for; the body is drained. */
export async function postMcp(
  url: string,
  headers: Record<string, string>,
  body = INITIALIZE_BODY,
): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body,
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}
