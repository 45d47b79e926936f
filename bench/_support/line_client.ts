/**
 * A bare MCP client over stdio: one JSON-RPC message a line, written and read as they are, no schema
 * checks. Cheap-call benches time the server and the pipe with it; the SDK's client validates every
 * result with zod (and a tool's output schema with Ajv), a cost of the client that would be charged to
 * whichever server it talks to. The same client is used for ours and the peers.
 * @module
 */

/** How to start a stdio server. */
export interface StdioCommand {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

/** A JSON-RPC error answer, as an Error. */
export class RpcError extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

/** A connected server: requests in flight by id, answers matched as lines arrive. */
export interface LineClient {
  pid: number;
  /** Sends a request and resolves with its result (rejects with {@link RpcError} on an error answer). */
  request(method: string, params?: Record<string, unknown>): Promise<unknown>;
  /** `tools/call`; the result as the server sent it. */
  callTool(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  /** Closes stdin and waits for the exit (killing the server after a grace period). */
  close(): Promise<void>;
}

/** The part of a tools/call result benches look at. */
export interface ToolResult {
  isError?: boolean;
  content?: unknown[];
  structuredContent?: unknown;
}

const CLOSE_GRACE_MS = 2_000;
/** What the SDK's stdio client passes on from its own environment besides the server's `env`. */
const INHERITED = ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"];
const NEWLINE = 0x0a;

/** Spawns `spec`, runs the initialize handshake and returns the client. */
export async function startLineClient(spec: StdioCommand): Promise<LineClient> {
  const child = new Deno.Command(spec.command, {
    args: spec.args,
    cwd: spec.cwd,
    env: { ...inheritedEnv(), ...spec.env },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  const encoder = new TextEncoder();
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 1;
  let ended: Error | undefined;
  const write = (message: Record<string, unknown>) =>
    writer.write(encoder.encode(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n"));
  const onLine = (line: Uint8Array) => {
    if (line.length === 0) return;
    const message = JSON.parse(new TextDecoder().decode(line));
    if (message.method !== undefined) {
      // A request of the server's own (roots, sampling): this client offers none of them.
      if (message.id !== undefined) {
        write({ id: message.id, error: { code: -32601, message: "Method not found" } }).catch(() => {});
      }
      return;
    }
    const waiter = waiting.get(message.id);
    if (!waiter) return;
    waiting.delete(message.id);
    if (message.error) waiter.reject(new RpcError(message.error.code, message.error.message));
    else waiter.resolve(message.result);
  };
  const reading = readLines(child.stdout, onLine).catch((error) => error).then((error) => {
    ended = error instanceof Error ? error : new Error("the server closed its stdout");
    for (const waiter of waiting.values()) waiter.reject(ended);
    waiting.clear();
  });
  const request = (method: string, params?: Record<string, unknown>) => {
    if (ended) return Promise.reject(ended);
    const id = nextId++;
    const answer = new Promise<unknown>((resolve, reject) => waiting.set(id, { resolve, reject }));
    write({ id, method, ...(params ? { params } : {}) }).catch(() => {});
    return answer;
  };
  let closing: Promise<void> | undefined;
  const close = () =>
    closing ??= (async () => {
      await writer.close().catch(() => {});
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          try {
            child.kill("SIGKILL");
          } catch {
            // Gone already.
          }
          resolve();
        }, CLOSE_GRACE_MS);
      });
      await Promise.race([child.status, late]);
      clearTimeout(timer);
      await child.status;
      await reading;
    })();
  try {
    await request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "bench", version: "0.0.0" },
    });
    await write({ method: "notifications/initialized" });
  } catch (error) {
    await close();
    throw error;
  }
  return {
    pid: child.pid,
    request,
    callTool: (name, args) => request("tools/call", { name, arguments: args }) as Promise<ToolResult>,
    close,
  };
}

async function readLines(stream: ReadableStream<Uint8Array>, onLine: (line: Uint8Array) => void) {
  let pending: Uint8Array = new Uint8Array(0);
  for await (const chunk of stream) {
    let start = 0;
    let newline: number;
    let buffer = pending.length ? concat(pending, chunk) : chunk;
    while ((newline = buffer.indexOf(NEWLINE, start)) >= 0) {
      onLine(buffer.subarray(start, newline));
      start = newline + 1;
    }
    buffer = buffer.subarray(start);
    pending = buffer.length ? buffer.slice() : new Uint8Array(0);
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function inheritedEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of INHERITED) {
    const value = Deno.env.get(key);
    if (value !== undefined && !value.startsWith("()")) env[key] = value;
  }
  return env;
}
