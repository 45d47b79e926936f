/**
 * Holds a server's answer to the client's `initialize` until some work that needs the client's
 * capabilities is done. A gateway is the example: it can declare to the servers behind it only what its own
 * client declared, so it connects to them when the client's `initialize` arrives, and answers once they are
 * up (or a deadline passes), with instructions that name them.
 *
 * Only public API: the gate wraps the transport the server connects to (its `onmessage` just before
 * `start`, and `send` for the instructions), so the SDK's own initialize handling (version negotiation,
 * capabilities) runs unchanged.
 * @module
 */
import type { ClientCapabilities, JSONRPCMessage, RequestId, Server, Transport } from "./sdk.ts";

/** What runs between the client's initialize and the server's answer. */
export interface InitializeGate {
  /** Called once, with the first initialize's capabilities; the answer waits for it to settle. */
  prepare(capabilities: ClientCapabilities): Promise<void>;
  /** The instructions to answer with, read once prepare settled (when given, they replace the server's). */
  instructions?(): string;
}

/**
 * Makes every transport `server` connects to from now on hold the first `initialize` request (and any
 * message after it, in order) until `gate.prepare` settles.
 */
export function gateInitialize(server: Server, gate: InitializeGate): void {
  const connect = server.connect.bind(server);
  server.connect = (transport: Transport) => {
    // Protocol.connect sets onmessage, then starts the transport: wrap in between, before any message.
    const start = transport.start.bind(transport);
    transport.start = () => {
      holdInitialize(transport, gate);
      return start();
    };
    return connect(transport);
  };
}

function holdInitialize(transport: Transport, gate: InitializeGate): void {
  const deliver = transport.onmessage;
  if (!deliver) return;
  type Held = [JSONRPCMessage, unknown];
  let held: Held[] | undefined;
  let initializeId: RequestId | undefined;
  transport.onmessage = (message, extra) => {
    if (held) {
      held.push([message, extra]);
      return;
    }
    const first = initializeId === undefined && "method" in message && message.method === "initialize" &&
      "id" in message;
    if (!first) {
      deliver.call(transport, message, extra as never);
      return;
    }
    initializeId = message.id;
    held = [[message, extra]];
    const params = (message.params ?? {}) as { capabilities?: ClientCapabilities };
    gate.prepare(params.capabilities ?? {}).catch(() => {}).finally(() => {
      const queued = held ?? [];
      held = undefined;
      for (const [next, nextExtra] of queued) deliver.call(transport, next, nextExtra as never);
    });
  };
  const instructions = gate.instructions;
  if (!instructions) return;
  const send = transport.send.bind(transport);
  let answered = false;
  transport.send = (message, options) => {
    if (!answered && initializeId !== undefined && "result" in message && message.id === initializeId) {
      answered = true;
      const text = instructions();
      message = { ...message, result: { ...message.result, ...(text ? { instructions: text } : {}) } };
    }
    return send(message, options);
  };
}
