/** Starts a server entrypoint in HTTP mode (`--http 127.0.0.1:0`) and learns its URL from its stderr. */
import { listServers } from "../../tools/catalog.ts";

/** A server process listening on loopback. */
export interface HttpProcess extends AsyncDisposable {
  /** `http://127.0.0.1:PORT/mcp`. */
  url: string;
  child: Deno.ChildProcess;
  /** Everything the server wrote on stderr so far. */
  stderr(): string;
}

/** The `deno run` argv of `mcp/<name>/main.ts` over HTTP: its declared permissions plus loopback net. */
export function httpRunArgs(name: string, serverArgs: readonly string[] = []): string[] {
  const server = listServers().find((entry) => entry.name === name);
  if (!server) throw new Error(`No server "${name}" under mcp/`);
  return [
    "run",
    "--no-prompt",
    "--quiet",
    ...server.permissions,
    "--allow-net=127.0.0.1",
    server.entry,
    "--http",
    "127.0.0.1:0",
    ...serverArgs,
  ];
}

/** Spawns the server and resolves once it printed the URL it listens on; throws if it exits first. */
export async function spawnHttp(
  name: string,
  options: {
    args?: readonly string[];
    env?: Record<string, string>;
    cwd?: string;
    /** Runs the server through a wrapper, `["sh", "-c", 'ulimit -n 64 && exec "$@"', "sh"]` say. */
    wrapper?: readonly string[];
  } = {},
): Promise<HttpProcess> {
  const [command, ...wrapperArgs] = options.wrapper ?? [Deno.execPath()];
  const child = new Deno.Command(command, {
    args: [...wrapperArgs, ...(options.wrapper ? [Deno.execPath()] : []), ...httpRunArgs(name, options.args)],
    cwd: options.cwd,
    env: { ...Deno.env.toObject(), ...options.env },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let text = "";
  const listening = Promise.withResolvers<string>();
  (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) {
      text += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(text)?.[1];
      if (url) listening.resolve(url);
    }
    listening.reject(new Error(`${name}-mcp exited before listening:\n${text}`));
  })();
  const url = await listening.promise;
  return {
    url,
    child,
    stderr: () => text,
    async [Symbol.asyncDispose]() {
      try {
        child.kill("SIGTERM");
      } catch {
        // Already gone.
      }
      await child.status;
    },
  };
}
