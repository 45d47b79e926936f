/** Small Response helpers of HTTP mode: JSON-RPC error answers, and knowing when a streamed body is done. */

/** A JSON-RPC error with no id, as the transport itself answers; `challenge` adds the bearer challenge. */
export function jsonRpcError(status: number, message: string, challenge = false, code = -32000): Response {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (challenge) headers["www-authenticate"] = 'Bearer realm="mcp"';
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers,
  });
}

/** A plain-text answer, for requests that are not MCP at all. */
export function plainText(status: number, text: string): Response {
  return new Response(text, { status, headers: { "content-type": "text/plain; charset=utf-8" } });
}

/** The same response, calling `done` once its body ended, failed or was cancelled by the client. */
export function afterBody(response: Response, done: () => void): Response {
  if (!response.body) {
    done();
    return response;
  }
  const reader = response.body.getReader();
  let finished = false;
  const finish = () => {
    if (!finished) (finished = true, done());
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done: ended } = await reader.read();
        if (ended) {
          controller.close();
          finish();
        } else controller.enqueue(value);
      } catch (error) {
        controller.error(error);
        finish();
      }
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason);
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
