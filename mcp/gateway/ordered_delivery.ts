/**
 * Keeps a response behind the notifications that preceded it. The SDK's Protocol runs notification
 * handlers a microtask late but handles a response at once, dropping its progress handler: progress that
 * arrives in the same chunk as the result would be lost (the last one, typically). Deferring each
 * response by one microtask lets the notifications queued before it run first.
 * @module
 */
import type { JSONRPCMessage, Transport } from "../../lib/mcp/sdk.ts";

/** Wraps the connected `transport`'s onmessage so responses are handled after earlier notifications. */
export function deliverResponsesInOrder(transport: Transport): void {
  const handle = transport.onmessage;
  if (!handle) return;
  transport.onmessage = (message: JSONRPCMessage, extra?: unknown) => {
    const isResponse = !("method" in message);
    if (isResponse) queueMicrotask(() => handle.call(transport, message, extra as never));
    else handle.call(transport, message, extra as never);
  };
}
