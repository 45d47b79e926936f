/**
 * MCP over newline-delimited JSON on a byte stream pair (stdin/stdout), in place of the SDK's stdio
 * transport. Ours answers what the SDK's drops: a line that is not JSON gets `-32700`, a message that is not
 * JSON-RPC `-32600`, and a message over the size limit an error for its own request id; the SDK's instead
 * closes the connection on a message over 10 MB (the server then exits) and concatenates its buffer on
 * every chunk (quadratic in the message size).
 * @module
 */
import { type JSONRPCMessage, JSONRPCMessageSchema, type Transport } from "./sdk.ts";
import { formatSize } from "../text/format.ts";
import { idOfOversized, readLines } from "./line_reader.ts";

/** Larger than any file a tool takes (edit: 64 MiB), small enough to hold a few copies in memory. */
export const MAX_MESSAGE_BYTES = 128 * 1024 * 1024;

/**
 * After the input ends, how long requests already read may still answer before the transport closes: a
 * one-shot client (`printf '…' | hello-mcp`) closes its end right after writing, yet wants its replies.
 */
export const DRAIN_MS = 10_000;

/**
 * Standard output as Deno gives it. Deno runs every async write to stdio on its blocking thread pool:
 * ~40 µs a message on an idle machine, far more on a loaded one, against ~1 µs for a `writeSync` to a
 * pipe. So a message that fits an empty pipe buffer (Linux: 64 KiB) is written at once, as Node writes
 * pipes on POSIX (and so the SDK's own stdio transport); a larger one, or one queued behind it, goes
 * through the async write, so a client slow to read never blocks the server for long.
 */
export interface StdioOutput {
  writeSync(bytes: Uint8Array): number;
  write(bytes: Uint8Array): Promise<number>;
}

/** The largest message written synchronously; see {@link StdioOutput}. */
export const SYNC_WRITE_BYTES = 64 * 1024;

/** A transport over a readable (messages in) and a writable (messages out), one JSON message a line. */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #input: ReadableStream<Uint8Array>;
  readonly #output: WritableStreamDefaultWriter<Uint8Array> | undefined;
  readonly #stdio: StdioOutput | undefined;
  /** Async writes not finished yet: a message may only be written at once when there is none. */
  #queued = 0;
  readonly #maxBytes: number;
  readonly #drainMs: number;
  readonly #dropAnswer?: (message: JSONRPCMessage) => boolean;
  /** Ids of requests read and neither answered nor cancelled by the client. */
  readonly #unanswered = new Set<string | number>();
  #onAnswered?: () => void;
  #reader?: ReadableStreamDefaultReader<Uint8Array>;
  #writing: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(
    input: ReadableStream<Uint8Array>,
    output: WritableStream<Uint8Array> | StdioOutput,
    options: {
      maxMessageBytes?: number;
      drainMs?: number;
      /** True for an answer not to write (the client has it already): it still counts as answered. */
      dropAnswer?: (message: JSONRPCMessage) => boolean;
    } = {},
  ) {
    this.#input = input;
    if (output instanceof WritableStream) this.#output = output.getWriter();
    else this.#stdio = output;
    this.#maxBytes = options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    this.#drainMs = options.drainMs ?? DRAIN_MS;
    this.#dropAnswer = options.dropAnswer;
  }

  start(): Promise<void> {
    this.#reader = this.#input.getReader();
    readLines(this.#reader, this.#maxBytes, {
      line: (bytes) => this.#handleLine(bytes),
      oversized: (bytes, head, tail) => this.#refuseOversized(bytes, head, tail),
    }, () => this.#closed).catch((error) => this.onerror?.(error)).finally(() => this.#endOfInput());
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (isResponse(message)) {
      this.#answered(message.id);
      if (this.#dropAnswer?.(message)) return this.#writing;
    }
    const line = new TextEncoder().encode(JSON.stringify(message) + "\n");
    const stdio = this.#stdio;
    if (stdio && this.#queued === 0 && line.length <= SYNC_WRITE_BYTES) {
      try {
        for (let written = 0; written < line.length;) written += stdio.writeSync(line.subarray(written));
      } catch (error) {
        if (!this.#closed) this.onerror?.(error as Error);
      }
      return this.#writing;
    }
    // One write at a time, in order: a reply must never interleave with a notification.
    const write = stdio
      ? async () => {
        for (let written = 0; written < line.length;) written += await stdio.write(line.subarray(written));
      }
      : () => this.#output!.write(line);
    this.#queued++;
    this.#writing = this.#writing.then(write).catch((error) => {
      if (!this.#closed) this.onerror?.(error);
    }).finally(() => this.#queued--);
    return this.#writing;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#reader?.cancel().catch(() => {});
    this.onclose?.();
  }

  /** The input ended: let the requests already read answer (for a while), flush, then close. */
  async #endOfInput(): Promise<void> {
    if (this.#unanswered.size > 0 && !this.#closed) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        this.#onAnswered = resolve;
        timer = setTimeout(resolve, this.#drainMs);
      });
      clearTimeout(timer);
    }
    await this.#writing;
    await this.close();
  }

  #answered(id: string | number): void {
    this.#unanswered.delete(id);
    if (this.#unanswered.size === 0) this.#onAnswered?.();
  }

  #handleLine(bytes: Uint8Array): void {
    const line = new TextDecoder().decode(bytes).replace(/\r$/, "");
    if (line.trim() === "") return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      this.#replyError(null, -32700, `Parse error: ${(error as Error).message}`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(json);
    if (!parsed.success) {
      this.#replyError(idOf(json), -32600, "Invalid Request: not a JSON-RPC 2.0 message");
      return;
    }
    if (isRequest(parsed.data)) this.#unanswered.add(parsed.data.id);
    const cancelled = cancelledId(parsed.data);
    // The SDK never answers a request the client cancelled: the close must not wait for its answer.
    if (cancelled !== undefined && this.#unanswered.has(cancelled)) this.#answered(cancelled);
    this.onmessage?.(parsed.data);
  }

  #refuseOversized(bytes: number, head: Uint8Array, tail: Uint8Array): void {
    this.#replyError(
      idOfOversized(head, tail) ?? null,
      -32600,
      `Request too large: ${formatSize(bytes)}, the limit is ${formatSize(this.#maxBytes)}`,
    );
  }

  #replyError(id: unknown, code: number, message: string): void {
    this.send({ jsonrpc: "2.0", id, error: { code, message } } as unknown as JSONRPCMessage);
  }
}

function isRequest(message: JSONRPCMessage): message is JSONRPCMessage & { id: string | number } {
  return "method" in message && "id" in message;
}

function isResponse(message: JSONRPCMessage): message is JSONRPCMessage & { id: string | number } {
  return !("method" in message) && "id" in message && message.id !== null && message.id !== undefined;
}

/** The request id a `notifications/cancelled` names, if `message` is one. */
function cancelledId(message: JSONRPCMessage): string | number | undefined {
  if (!("method" in message) || message.method !== "notifications/cancelled" || "id" in message) return;
  const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}

function idOf(json: unknown): string | number | null {
  const id = (json as { id?: unknown } | null)?.id;
  return typeof id === "string" || typeof id === "number" ? id : null;
}
