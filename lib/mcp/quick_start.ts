/**
 * Answers a client's handshake (initialize, then tools/list) from the server's manifest (`manifest.ts`)
 * before the tool modules, zod or the MCP SDK are loaded: loading them was most of a cold start, and a
 * client waits for both answers before it uses a server. Every line read is handed on to the SDK
 * server except the answered tools/list; initialize is handed on too, so the SDK server knows its client,
 * and the SDK's answer to it is dropped ({@link replayedAnswer}). Anything else stops the quick path.
 * @module
 */
import type { JSONRPCMessage } from "./sdk.ts";
import { serverCapabilities, serverInfo, type ServerManifest } from "./manifest.ts";
import { log } from "../log.ts";

/** The SDK's `LATEST_PROTOCOL_VERSION` and `SUPPORTED_PROTOCOL_VERSIONS` (a test keeps them equal). */
export const LATEST_PROTOCOL_VERSION = "2025-11-25";
export const SUPPORTED_PROTOCOL_VERSIONS = [
  LATEST_PROTOCOL_VERSION,
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
  "2024-10-07",
];

/**
 * A client quiet this long after initialize is answered is not about to list the tools: the quick path
 * ends and the server loads. Clients send tools/list right after initialized, within a few milliseconds.
 */
const QUIET_MS = 50;
/** A handshake longer than this is left to the SDK (and its size checks). */
const MAX_HANDSHAKE_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;

/** What the quick path leaves for the SDK server. */
export interface Handshake {
  /** The lines read (less the answered tools/list), then the rest of the input. */
  input: ReadableStream<Uint8Array>;
  /** The initialize request answered here and the answer sent, when there was one. */
  initialize?: { id: string | number; result: Record<string, unknown> };
  /**
   * Resolves when the input ends with nothing sent after the handshake (a client that listed the tools
   * and left): there is nothing left to serve, and no reason to load the server first.
   */
  closedIdle: Promise<void>;
  /**
   * Resolves once the client sends more than the handshake, or is quiet for {@link QUIET_MS}: the time to
   * load the server. Never when the client leaves first ({@link closedIdle}): a client that only listed the
   * tools is let go at once, without a load to wait for.
   */
  wanted: Promise<void>;
}

/** The initialize result the SDK server gives for the server `manifest` describes. */
export function initializeResult(
  manifest: ServerManifest,
  requestedVersion: string,
): Record<string, unknown> {
  const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(requestedVersion)
    ? requestedVersion
    : LATEST_PROTOCOL_VERSION;
  return {
    protocolVersion,
    capabilities: serverCapabilities(),
    serverInfo: serverInfo(manifest.name),
    ...(manifest.instructions ? { instructions: manifest.instructions } : {}),
  };
}

/** Reads `input` until the handshake is answered on `output`, or a message the quick path leaves alone. */
export async function answerHandshake(
  manifest: ServerManifest,
  input: ReadableStream<Uint8Array>,
  output: WritableStream<Uint8Array>,
): Promise<Handshake> {
  const reader = input.getReader();
  const writer = output.getWriter();
  const replay: Uint8Array[] = [];
  let pending: Uint8Array = new Uint8Array(0);
  let initialize: Handshake["initialize"];
  /** A line the quick path did not answer, which the server still has to. */
  let leftOver = false;
  let quiet = false;
  const answer = (id: string | number, result: unknown) =>
    writer.write(new TextEncoder().encode(JSON.stringify({ result, jsonrpc: "2.0", id }) + "\n"));
  /** A read not yet answered when the client went quiet: the rest of the input starts with it. */
  let read: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  try {
    reading: while (pending.length <= MAX_HANDSHAKE_BYTES) {
      read ??= reader.read();
      // Once initialize is answered, a quiet client gets its server loaded meanwhile, not at its next call.
      const result = initialize ? await beforeQuiet(read) : await read;
      if (!result) {
        quiet = true;
        break;
      }
      read = undefined;
      const { value, done } = result;
      if (done) break;
      pending = concat(pending, value);
      let newline: number;
      while ((newline = pending.indexOf(NEWLINE)) >= 0) {
        const line = pending.subarray(0, newline + 1);
        pending = pending.subarray(newline + 1);
        const message = parse(line);
        if (!initialize && isInitialize(message)) {
          initialize = { id: message.id, result: initializeResult(manifest, message.params.protocolVersion) };
          await answer(initialize.id, initialize.result);
          replay.push(line);
        } else if (initialize && message?.method === "notifications/initialized" && !("id" in message)) {
          replay.push(line);
        } else if (
          initialize && message?.method === "tools/list" && isId(message.id) && !message.params?.cursor
        ) {
          await answer(message.id, { tools: manifest.tools });
          break reading;
        } else {
          replay.push(line);
          leftOver = true;
          break reading;
        }
      }
    }
  } finally {
    writer.releaseLock();
  }
  replay.push(pending);
  return { ...forward(reader, read, replay, leftOver || hasContent(pending), quiet), initialize };
}

/** `read`'s result, or undefined when the client sends nothing for {@link QUIET_MS}. */
async function beforeQuiet(
  read: Promise<ReadableStreamReadResult<Uint8Array>>,
): Promise<ReadableStreamReadResult<Uint8Array> | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const quiet = new Promise<undefined>((resolve) => timer = setTimeout(() => resolve(undefined), QUIET_MS));
  try {
    return await Promise.race([read, quiet]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The rest of the input after the handshake: `replay`, then what `reader` reads. Reading goes on while the
 * server loads, so a client that closes its input after the handshake is seen at once (`closedIdle`).
 */
function forward(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  read: Promise<ReadableStreamReadResult<Uint8Array>> | undefined,
  replay: Uint8Array[],
  sentMore: boolean,
  quiet: boolean,
): Pick<Handshake, "input" | "closedIdle" | "wanted"> {
  const queue = replay.filter((chunk) => chunk.length);
  let queued = queue.reduce((sum, chunk) => sum + chunk.length, 0);
  let ended = false;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  const changed = () => new Promise<void>((resolve) => wake = resolve);
  let idle!: () => void;
  const closedIdle = new Promise<void>((resolve) => idle = resolve);
  let want!: () => void;
  const wanted = new Promise<void>((resolve) => want = resolve);
  const quietTimer = sentMore || quiet ? undefined : setTimeout(() => want(), QUIET_MS);
  if (!quietTimer) want();
  (async () => {
    try {
      while (true) {
        // Past this much unread input, wait for the server to take some: a flood must not fill memory.
        while (queued > MAX_HANDSHAKE_BYTES) await changed();
        const { value, done } = await (read ?? reader.read());
        read = undefined;
        if (done) break;
        if (!sentMore && hasContent(value)) {
          sentMore = true;
          want();
        }
        queue.push(value);
        queued += value.length;
        wake?.();
      }
    } catch (error) {
      failure = { error };
    }
    ended = true;
    clearTimeout(quietTimer);
    // Settled before the input closes: whoever reads the input to its end knows by then.
    if (!sentMore && !failure) idle();
    else want();
    wake?.();
  })();
  return {
    input: new ReadableStream<Uint8Array>({
      async pull(controller) {
        while (!queue.length && !ended) await changed();
        const next = queue.shift();
        if (next) {
          queued -= next.length;
          wake?.();
          controller.enqueue(next);
        } else if (failure) controller.error(failure.error);
        else controller.close();
      },
      cancel: (reason) => reader.cancel(reason),
    }),
    closedIdle,
    wanted,
  };
}

function hasContent(bytes: Uint8Array): boolean {
  return bytes.some((byte) => byte !== NEWLINE && byte !== 0x0d && byte !== 0x20 && byte !== 0x09);
}

/**
 * Picks out the SDK server's answer to the replayed initialize, for the transport to drop: the client has
 * ours. Ours must equal it; a difference is logged, as it would mean the quick path told the client
 * something the SDK would not.
 */
export function replayedAnswer(
  initialize: NonNullable<Handshake["initialize"]>,
): (message: JSONRPCMessage) => boolean {
  let dropped = false;
  return (message) => {
    // Only a response: the server's own requests (roots/list) number their ids from 0 too.
    const isAnswer = "id" in message && !("method" in message) && message.id === initialize.id;
    if (dropped || !isAnswer) return false;
    dropped = true;
    const sdk = "result" in message ? message.result : message;
    if (JSON.stringify(sdk) !== JSON.stringify(initialize.result)) {
      log.error(
        `quick start answered initialize with ${JSON.stringify(initialize.result)}, the SDK with ${
          JSON.stringify(sdk)
        }`,
      );
    }
    return true;
  };
}

interface Message {
  id?: unknown;
  method?: unknown;
  params?: Record<string, unknown>;
}

function parse(line: Uint8Array): Message | undefined {
  try {
    const message = JSON.parse(new TextDecoder().decode(line));
    return typeof message === "object" && message !== null && message.jsonrpc === "2.0" ? message : undefined;
  } catch {
    return undefined;
  }
}

/** An initialize request the SDK would accept: protocol version, capabilities and client name/version. */
function isInitialize(
  message: Message | undefined,
): message is { id: string | number; method: "initialize"; params: { protocolVersion: string } } {
  const params = message?.params;
  const client = params?.clientInfo as Record<string, unknown> | undefined;
  return message?.method === "initialize" && isId(message.id) &&
    typeof params?.protocolVersion === "string" &&
    isObject(params.capabilities) && isObject(client) && typeof client.name === "string" &&
    typeof client.version === "string";
}

function isId(id: unknown): id is string | number {
  return typeof id === "string" || (typeof id === "number" && Number.isInteger(id));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
