/**
 * An MCP client over a child process's stdin/stdout, in place of the SDK's StdioClientTransport, which
 * closes the connection (and so kills a healthy server, losing its state) on any message over 10 MB,
 * joins its buffer on every chunk (quadratic in the message size), and on close signals only the child,
 * leaving its own children running. Here a message may be as large as the server side takes
 * ({@link MAX_MESSAGE_BYTES}); a response over that fails its own request with {@link TOO_LARGE_CODE}
 * and the connection stays; the child leads its own process group, and close() ends its stdin, then kills
 * the whole tree (lib/process/tree_kill.ts). The connection ends when the child exits, and also when it
 * closes its stdout while it lives on: it can never answer again, so its calls fail at once and its tree
 * is killed, rather than each later call waiting out its timeout on a server that looks healthy.
 * @module
 */
import { type JSONRPCMessage, JSONRPCMessageSchema, type Transport } from "./sdk.ts";
import { getDefaultEnvironment } from "./sdk_client.ts";
import { MAX_MESSAGE_BYTES } from "./line_transport.ts";
import { idOfOversized, readLines } from "./line_reader.ts";
import { formatSize } from "../text/format.ts";
import { ownProcessTree, processRules } from "../platform/mod.ts";
import { findOnPath } from "../platform/which.ts";
import { adoption } from "../process/adoption.ts";
import { killTree } from "../process/tree_kill.ts";

/** The JSON-RPC error code of a response too large to read; the request it answers fails with it. */
export const TOO_LARGE_CODE = -32_010;

/** How long a child that exits may still take to finish its output before the connection closes. */
const DRAIN_MS = 1_000;
/** How long a child whose stdout ended has to exit before it counts as alive with its stdout closed. */
const EOF_EXIT_MS = 200;
/** How long a closed connection's child has to exit on stdin EOF before its tree is killed. */
const EXIT_GRACE_MS = 1_000;

/** The process to start, and where its stderr goes. */
export interface ChildOptions {
  command: string;
  args: string[];
  /** Added to a short safe list of the gateway's own variables (PATH, HOME...; the SDK's). */
  env: Record<string, string>;
  cwd?: string;
  /** Each chunk of the child's stderr (else it is dropped). */
  stderr?: (chunk: Uint8Array) => void;
  /** Default {@link MAX_MESSAGE_BYTES}. */
  maxMessageBytes?: number;
}

/** A JSON-RPC connection to a child process over its stdio, one message a line. */
export class ChildTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #options: ChildOptions;
  #child?: Deno.ChildProcess;
  #stdin?: WritableStreamDefaultWriter<Uint8Array>;
  #readers: ReadableStreamDefaultReader<Uint8Array>[] = [];
  /** Settles once both pipes were read to their end (or failed). */
  #drained: Promise<unknown> = Promise.resolve();
  #owned: ReturnType<typeof ownProcessTree> = null;
  #exit?: Deno.CommandStatus;
  #closing?: Promise<void>;
  #closed = false;
  #outputClosed = false;

  constructor(options: ChildOptions) {
    this.#options = options;
  }

  /** The child's pid (its process group's id on POSIX), once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** How the child ended, once it did. */
  get exitStatus(): Deno.CommandStatus | undefined {
    return this.#exit;
  }

  /** True when the connection ended because the child closed its stdout while it was still running. */
  get closedOutput(): boolean {
    return this.#outputClosed;
  }

  async start(): Promise<void> {
    const { command, args, cwd } = this.#options;
    const env = { ...getDefaultEnvironment(), ...this.#options.env };
    // A bare name is looked up as a shell would (Windows: with PATHEXT, so `npx` finds `npx.cmd`).
    const program = /[\\/]/.test(command) ? command : await findOnPath(command, env) ?? command;
    const child = new Deno.Command(program, {
      args,
      env,
      clearEnv: true,
      ...(cwd === undefined ? {} : { cwd }),
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      // Its own process group: close() and the watchdog reach the children it starts.
      detached: processRules.detached,
    }).spawn();
    this.#child = child;
    this.#owned = ownProcessTree(child.pid);
    // Deno reaps it: where this process adopts orphans, it must not take it for one.
    const disown = adoption.own(child.pid);
    this.#stdin = child.stdin.getWriter();
    this.#readers = [child.stdout.getReader(), child.stderr.getReader()];
    const stdout = this.#readStdout(this.#readers[0]);
    const stderr = this.#readStderr(this.#readers[1]);
    this.#drained = Promise.all([stdout, stderr]);
    child.status.then(async (status) => {
      this.#exit = status;
      disown();
      // What it wrote before exiting is still in the pipes; a grandchild holding them must not stall us.
      await settlesWithin(this.#drained, DRAIN_MS);
      this.#end();
      this.#release();
    });
    stdout.then(async () => {
      // A child that exits closes its stdout first: its exit (above) then ends the connection, with its status.
      if (this.#closed || await settlesWithin(child.status, EOF_EXIT_MS) || this.#closed) return;
      // Its stdout ended but it runs on: nothing it does can answer us any more. End the connection now
      // (calls in flight fail at once) and kill its tree; stderr is still read until then, for the log.
      this.#outputClosed = true;
      this.#end();
      this.close().catch(() => {});
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (!this.#stdin || this.#closed) return Promise.reject(new Error("Not connected"));
    return this.#stdin.write(new TextEncoder().encode(JSON.stringify(message) + "\n"));
  }

  /** Ends the child's stdin, gives it {@link EXIT_GRACE_MS} to exit, then kills whatever is left of its tree. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      const child = this.#child;
      // Not awaited: a child that reads nothing any more would hold the close behind its full pipe.
      this.#stdin?.close().catch(() => {});
      if (child) {
        await settlesWithin(child.status, EXIT_GRACE_MS);
        await killTree(child.pid, { graceMs: EXIT_GRACE_MS, owned: this.#owned, rootRunning: !this.#exit });
        await child.status;
        this.#owned?.close();
        // Its last stderr lines (why it failed) are read before close() resolves.
        await settlesWithin(this.#drained, DRAIN_MS);
      }
      this.#end();
      this.#release();
    })();
    return this.#closing;
  }

  #end(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }

  /** Pipes a grandchild still holds: stop reading them, and stop writing to a child that is gone. */
  #release(): void {
    for (const reader of this.#readers) reader.cancel().catch(() => {});
    this.#stdin?.abort().catch(() => {});
  }

  async #readStdout(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    const max = this.#options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    const decoder = new TextDecoder();
    await readLines(reader, max, {
      line: (bytes) => {
        const line = decoder.decode(bytes).replace(/\r$/, "");
        if (line.trim() === "") return;
        try {
          this.onmessage?.(JSONRPCMessageSchema.parse(JSON.parse(line)));
        } catch (error) {
          // A line that is not JSON-RPC (a stray print): reported, the connection kept.
          this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        }
      },
      oversized: (bytes, head, tail) => {
        const id = idOfOversized(head, tail);
        const message = `Response too large: ${formatSize(bytes)}, the limit is ${formatSize(max)}`;
        if (id === undefined) return this.onerror?.(new Error(`${message}; no request id found in it`));
        this.onmessage?.({ jsonrpc: "2.0", id, error: { code: TOO_LARGE_CODE, message } });
      },
    }).catch((error) => this.#closed || this.onerror?.(error));
  }

  async #readStderr(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    while (true) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done || !value) return;
      this.#options.stderr?.(value);
    }
  }
}

/** Whether `promise` settles within `ms`; the timer never outlives the call. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => timer = setTimeout(() => resolve(false), ms));
  try {
    return await Promise.race([promise.then(() => true, () => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
