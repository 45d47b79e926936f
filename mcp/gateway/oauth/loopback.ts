/**
 * The redirect end of the browser step: a one-shot HTTP listener on 127.0.0.1 at a port the OS picks
 * (RFC 8252 loopback redirect), which receives the authorization code and tells the user to go back to
 * the terminal. The page never says "Authorised": the terminal knows that only once the code was exchanged
 * and the tokens worked. A redirect whose `state` is not the request's is refused on the page too.
 * @module
 */

/** What the authorization server sent back. */
export interface Redirected {
  code: string;
  state: string | null;
}

/** A listening redirect endpoint. */
export interface LoopbackListener extends AsyncDisposable {
  /** `http://127.0.0.1:<port>/callback` */
  redirectUrl: string;
  /** Resolves with the first redirect that carries a code; rejects on an error redirect. */
  redirected: Promise<Redirected>;
  close(): Promise<void>;
}

const PAGE_HEADERS = { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" };

/** Starts listening; `expectedState()` is the state of the request made; close it (or `await using`) when done. */
export function listenForRedirect(expectedState: () => string): LoopbackListener {
  const { promise: redirected, resolve, reject } = Promise.withResolvers<Redirected>();
  redirected.catch(() => {});
  let settled = false;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const url = new URL(request.url);
    if (url.pathname !== "/callback") return new Response("Not found", { status: 404 });
    const error = url.searchParams.get("error");
    const code = url.searchParams.get("code");
    if (settled) return new Response("This authorisation is already done.", { headers: PAGE_HEADERS });
    if (error) {
      settled = true;
      const detail = url.searchParams.get("error_description");
      reject(new Error(`The authorization server refused: ${error}${detail ? ` (${detail})` : ""}`));
      return new Response(`Authorisation failed: ${error}. See the terminal.`, {
        status: 400,
        headers: PAGE_HEADERS,
      });
    }
    if (!code) return new Response("Missing ?code=", { status: 400, headers: PAGE_HEADERS });
    settled = true;
    const state = url.searchParams.get("state");
    if (!expectedState() || state !== expectedState()) {
      // Another request's answer (or a forged one): what the terminal refuses, the page must not approve.
      reject(new Error("The redirect's state does not match the request's: refusing it (start again)"));
      return new Response(
        "Authorisation refused: this answer does not belong to the request the terminal made. Start again there.",
        { status: 400, headers: PAGE_HEADERS },
      );
    }
    resolve({ code, state });
    return new Response(
      "Received. Go back to the terminal: it finishes the authorisation and says whether it worked.",
      { headers: PAGE_HEADERS },
    );
  });
  const close = async () => {
    await server.shutdown();
  };
  return {
    redirectUrl: `http://127.0.0.1:${server.addr.port}/callback`,
    redirected,
    close,
    [Symbol.asyncDispose]: close,
  };
}
