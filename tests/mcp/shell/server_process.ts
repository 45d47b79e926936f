/**
 * A real shell server process driven over raw stdio (newline-delimited JSON-RPC), for tests that must
 * control how it ends: close its stdin, signal it, or start it under a wrapper such as `unshare`.
 * @module
 */
import { listServers, runArgs } from "../../../tools/catalog.ts";

/** Options of {@link spawnShellProcess}. */
export interface ShellProcessOptions {
  cwd: string;
  env?: Record<string, string>;
  /** argv put before `deno run …` (a wrapper that execs it), e.g. `["unshare", "--pid", "--fork"]`. */
  prefix?: string[];
  /** Declares form elicitation and answers each `elicitation/create` with what this returns. */
  elicit?: (params: Record<string, unknown>) => Record<string, unknown>;
}

/** A running server: call its tools, then end it the way the test needs. */
export interface ShellProcess extends AsyncDisposable {
  /** The pid of the spawned process (the wrapper's when `prefix` is given). */
  pid: number;
  /** Calls a tool and returns the text of its first content block. */
  call(name: string, args?: Record<string, unknown>): Promise<string>;
  /** Closes the server's stdin, as a client that goes away does. */
  closeStdin(): Promise<void>;
  status: Promise<Deno.CommandStatus>;
  /** What the server wrote on stderr so far. */
  stderr(): string;
}

const encoder = new TextEncoder();

/** Spawns `mcp/shell/main.ts` with its declared permissions and completes the MCP handshake. */
export async function spawnShellProcess(options: ShellProcessOptions): Promise<ShellProcess> {
  const server = listServers().find((entry) => entry.name === "shell")!;
  const argv = [...options.prefix ?? [], Deno.execPath(), ...runArgs(server)];
  const child = new Deno.Command(argv[0], {
    args: argv.slice(1),
    cwd: options.cwd,
    env: { ...Deno.env.toObject(), ...options.env },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const pending = new Map<number, (message: Record<string, unknown>) => void>();
  let errors = "";
  const readStderr = (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) errors += chunk;
  })();
  const send = (message: Record<string, unknown>) =>
    writer.write(encoder.encode(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n"));
  const readStdout = (async () => {
    let buffered = "";
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      buffered += chunk;
      let end;
      while ((end = buffered.indexOf("\n")) !== -1) {
        const message = JSON.parse(buffered.slice(0, end));
        buffered = buffered.slice(end + 1);
        if (message.method !== undefined) {
          // A request from the server: only elicitations are answered (when the test asked to).
          if (message.id === undefined) continue;
          const answer = message.method === "elicitation/create" && options.elicit
            ? { result: options.elicit(message.params) }
            : { error: { code: -32601, message: `${message.method} is not supported here` } };
          send({ id: message.id, ...answer }).catch(() => {});
          continue;
        }
        pending.get(message.id)?.(message);
        pending.delete(message.id);
      }
    }
  })();
  let nextId = 1;
  const request = async (method: string, params: Record<string, unknown>) => {
    const id = nextId++;
    const answer = new Promise<Record<string, unknown>>((resolve) => pending.set(id, resolve));
    await send({ id, method, params });
    return await answer;
  };
  await request("initialize", {
    protocolVersion: "2025-06-18",
    capabilities: options.elicit ? { elicitation: {} } : {},
    clientInfo: { name: "shell-process-test", version: "0.0.0" },
  });
  await send({ method: "notifications/initialized" });
  let stdinOpen = true;
  const closeStdin = async () => {
    if (!stdinOpen) return;
    stdinOpen = false;
    await writer.close().catch(() => {});
  };
  return {
    pid: child.pid,
    status: child.status,
    stderr: () => errors,
    async call(name, args = {}) {
      const answer = await request("tools/call", { name, arguments: args });
      const result = answer.result as { content?: { type: string; text: string }[] } | undefined;
      if (!result) throw new Error(`${name} failed: ${JSON.stringify(answer.error)}`);
      return result.content?.[0]?.text ?? "";
    },
    closeStdin,
    async [Symbol.asyncDispose]() {
      await closeStdin();
      try {
        child.kill("SIGKILL");
      } catch {
        // Already gone.
      }
      await child.status;
      await Promise.all([readStdout, readStderr]);
    },
  };
}
