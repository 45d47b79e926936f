/**
 * Two in-process transports linked to each other, for hosting a server in the same process as its client.
 * Unlike the SDK's InMemoryTransport, which hands each message to the peer synchronously (a chain of nested
 * requests then grows the call stack until it overflows), each message is delivered on a fresh microtask.
 * @module
 */
import type { JSONRPCMessage, Transport } from "./sdk.ts";

class LinkedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  peer?: LinkedTransport;
  #closed = false;

  start(): Promise<void> {
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new Error("Cannot send: the linked transport is closed"));
    const peer = this.peer;
    // Microtasks run in the order queued, so the peer sees messages in the order they were sent.
    queueMicrotask(() => {
      if (peer && !peer.#closed) peer.onmessage?.(message);
    });
    return Promise.resolve();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
    await this.peer?.close();
  }
}

/** A client/server transport pair: what one sends, the other receives on a later microtask; close() closes both. */
export function createLinkedPair(): [Transport, Transport] {
  const a = new LinkedTransport();
  const b = new LinkedTransport();
  a.peer = b;
  b.peer = a;
  return [a, b];
}
