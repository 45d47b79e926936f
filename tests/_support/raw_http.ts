/** HTTP written by hand over real sockets: half-sent requests and idle connections, for HTTP mode's limits. */

/** A TCP connection to a server, read in the background until the server closes it. */
export interface RawConnection extends AsyncDisposable {
  /** Everything the server sent so far. */
  readonly received: string;
  /** True once the server closed (or reset) the connection. */
  readonly ended: boolean;
  write(text: string): Promise<void>;
}

/** Connects to the host and port of `url` and sends `text` (the start of a request, or nothing). */
export async function openRaw(url: string, text = ""): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const conn = await Deno.connect({ hostname, port: Number(port) });
  const state = { received: "", ended: false };
  const reading = (async () => {
    const decoder = new TextDecoder();
    const buffer = new Uint8Array(16_384);
    try {
      for (;;) {
        const count = await conn.read(buffer);
        if (count === null) break;
        state.received += decoder.decode(buffer.subarray(0, count), { stream: true });
      }
    } catch {
      // Reset by the server, or closed by us: either way it is over.
    }
    state.ended = true;
  })();
  const connection: RawConnection = {
    get received() {
      return state.received;
    },
    get ended() {
      return state.ended;
    },
    async write(more: string) {
      await conn.write(new TextEncoder().encode(more));
    },
    async [Symbol.asyncDispose]() {
      try {
        conn.close();
      } catch {
        // Already closed.
      }
      await reading;
    },
  };
  if (text) await connection.write(text);
  return connection;
}

/** The head of a POST to `url`, up to and including the blank line; `headers` are added or replace. */
export function postHead(url: string, headers: Record<string, string> = {}): string {
  const { host, pathname } = new URL(url);
  const all: Record<string, string> = {
    host,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    ...headers,
  };
  return `POST ${pathname} HTTP/1.1\r\n${Object.entries(all).map(([k, v]) => `${k}: ${v}\r\n`).join("")}\r\n`;
}

/** The status code of the first response in `received`, or undefined. */
export function statusOf(received: string): number | undefined {
  const match = /^HTTP\/1\.1 (\d{3})/.exec(received);
  return match ? Number(match[1]) : undefined;
}

/** An initialize request's JSON body. */
export const INITIALIZE_BODY = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
});

/** POSTs `body` with the headers a Streamable HTTP client sends; the status, the body consumed. */
export async function postStatus(
  url: string,
  body: string,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<number> {
  const response = await fetch(url, {
    method: "POST",
    signal,
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body,
  });
  await response.body?.cancel();
  return response.status;
}
