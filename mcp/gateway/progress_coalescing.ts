/**
 * Progress from a downstream server, coalesced per progress token: a server may send 100,000 notifications
 * in a few seconds, and handling (and relaying upstream) each one cost the gateway hundreds of megabytes
 * and seconds of delay for every other server's calls. A notification waits for the next turn of the
 * event loop; a later one for the same token replaces it (the latest wins: progress is a level, not a
 * log). Any other message first delivers what waits, so the order between progress and the result, a
 * log message or a question is kept.
 * @module
 */
import type { JSONRPCMessage, Transport } from "../../lib/mcp/sdk.ts";

/** Tokens waiting at most: past this, what waits is delivered at once (memory stays bounded). */
const MAX_WAITING = 256;

type Message = JSONRPCMessage;

/** Wraps the connected `transport`'s onmessage so progress notifications are coalesced per token. */
export function coalesceProgress(transport: Transport): void {
  const handle = transport.onmessage;
  if (!handle) return;
  const deliver = (message: Message, extra?: unknown) => handle.call(transport, message, extra as never);
  const waiting = new Map<unknown, { message: Message; extra?: unknown }>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = [...waiting.values()];
    waiting.clear();
    for (const { message, extra } of batch) deliver(message, extra);
  };
  transport.onmessage = (message: Message, extra?: unknown) => {
    const token = progressToken(message);
    if (token === undefined) {
      flush();
      deliver(message, extra);
      return;
    }
    waiting.delete(token); // re-inserted last: tokens keep the order of their latest notification
    waiting.set(token, { message, extra });
    if (waiting.size > MAX_WAITING) flush();
    else timer ??= setTimeout(flush, 0);
  };
  const close = transport.onclose;
  transport.onclose = () => {
    // What waits would only reach a request the close is about to fail.
    clearTimeout(timer);
    waiting.clear();
    close?.call(transport);
  };
}

function progressToken(message: Message): unknown {
  if (!("method" in message) || message.method !== "notifications/progress" || "id" in message) {
    return undefined;
  }
  return (message.params as { progressToken?: unknown } | undefined)?.progressToken;
}
