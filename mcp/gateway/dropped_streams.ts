/**
 * A Streamable HTTP call whose answer stream breaks fails at once. The server answers a POST with an SSE
 * stream; when that stream is cut (the connection dropped) or ends without the answer, the SDK reports
 * "SSE stream disconnected" (or nothing) and leaves the request waiting for its timeout, unless the server
 * made the stream resumable (an event id), when the SDK reconnects to resume it. Here fetch is watched:
 * each POST's request ids, and how its SSE body ends; a request still unanswered when its stream ended,
 * and not resumable, gets an error answer ({@link DROPPED_CODE}) in the server's place. A resumable one
 * fails the same way once its resumption cannot come: the SDK's GET with `Last-Event-ID` is refused (seen: a
 * server answering 405 left the call waiting its whole timeout), or its stream ends again, not resumable.
 * @module
 */
import type { JSONRPCMessage, RequestId, Transport } from "../../lib/mcp/sdk.ts";

/** The JSON-RPC error code of a request whose answer stream broke before the answer came. */
export const DROPPED_CODE = -32_011;

/** Requests in flight on one transport, by the stream their answer comes on. */
export class DroppedStreams {
  /** Requests sent and not yet answered: the answer comes on their POST's stream. */
  readonly #open = new Set<RequestId>();
  /** Requests whose stream broke resumably: the SDK's resumption GET must bring their answers. */
  readonly #resuming = new Set<RequestId>();
  #deliver?: (message: JSONRPCMessage) => void;

  /** `fetch` watching each POST: its requests, and how its answer stream ends. */
  fetch(inner: typeof fetch): typeof fetch {
    return async (input, init) => {
      if (init?.method === "GET" && new Headers(init.headers).has("last-event-id")) {
        return this.#resumption(await inner(input, init));
      }
      const ids = init?.method === "POST" ? requestIds(init.body) : [];
      const response = await inner(input, init);
      const sse = response.headers.get("content-type")?.startsWith("text/event-stream");
      if (!ids.length || !sse || !response.body) return response;
      for (const id of ids) this.#open.add(id);
      const body = watchEnd(response.body, (resumable) => {
        // Past every microtask: the SDK's stream pipeline has handled all that came before the end.
        setTimeout(() => this.#ended(ids, resumable), 0);
      });
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    };
  }

  /** Wraps the connected `transport`'s onmessage: answers are noted, and dropped requests answered. */
  attach(transport: Transport): void {
    const handle = transport.onmessage;
    if (!handle) return;
    this.#deliver = (message) => handle.call(transport, message);
    transport.onmessage = (message: JSONRPCMessage, extra?: unknown) => {
      if (!("method" in message) && "id" in message) {
        this.#open.delete(message.id as RequestId);
        this.#resuming.delete(message.id as RequestId);
      }
      handle.call(transport, message, extra as never);
    };
  }

  #ended(ids: readonly RequestId[], resumable: boolean): void {
    for (const id of ids) {
      if (!this.#open.has(id)) continue;
      if (resumable) this.#resuming.add(id);
      else this.#fail(id);
    }
  }

  /**
   * The answer to a resumption GET: refused for good (a 4xx other than 401, which the SDK answers by
   * authorising, and 429), its waiting requests fail now; a stream that ends again, not resumable, too.
   */
  #resumption(response: Response): Response {
    const refused = !response.ok && response.status < 500 && ![401, 429].includes(response.status);
    if (refused) {
      this.#giveUp();
      return response;
    }
    const sse = response.headers.get("content-type")?.startsWith("text/event-stream");
    if (!response.ok || !sse || !response.body) return response;
    const body = watchEnd(response.body, (resumable) => {
      if (!resumable) setTimeout(() => this.#giveUp(), 0);
    });
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }

  #giveUp(): void {
    for (const id of this.#resuming) if (this.#open.has(id)) this.#fail(id);
    this.#resuming.clear();
  }

  #fail(id: RequestId): void {
    this.#open.delete(id);
    this.#resuming.delete(id);
    this.#deliver?.({
      jsonrpc: "2.0",
      id,
      error: { code: DROPPED_CODE, message: "the connection dropped before the answer came" },
    } as JSONRPCMessage);
  }
}

/** The ids of the JSON-RPC requests in a POST body (the SDK sends a JSON string). */
function requestIds(body: BodyInit | null | undefined): RequestId[] {
  if (typeof body !== "string") return [];
  try {
    const parsed = JSON.parse(body);
    return (Array.isArray(parsed) ? parsed : [parsed])
      .filter((message) => typeof message?.method === "string" && message.id !== undefined)
      .map((message) => message.id);
  } catch {
    return [];
  }
}

/** `body` as is, calling `ended` once when it ends or breaks, with whether it carried an event id. */
function watchEnd(
  body: ReadableStream<Uint8Array>,
  ended: (resumable: boolean) => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let resumable = false;
  let done = false;
  const end = () => {
    if (done) return;
    done = true;
    ended(resumable);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done: finished } = await reader.read();
        if (finished) {
          end();
          controller.close();
          return;
        }
        // An `id:` field makes the stream resumable: the SDK reconnects with Last-Event-ID then.
        if (!resumable && /(^|\n)id:/.test(decoder.decode(value, { stream: true }))) resumable = true;
        controller.enqueue(value);
      } catch (error) {
        end();
        controller.error(error);
      }
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
}
