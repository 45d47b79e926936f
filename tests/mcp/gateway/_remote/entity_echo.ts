/**
 * A remote MCP server on 127.0.0.1 that echoes the credential of each request's Authorization header in a
 * 500 HTML page, written as character references (`&#x53;&#x45;…`) after `pad` characters of filler, so that
 * the gateway's 300-character cut can fall inside it. `/fail/<pad>` answers every request so (the connect
 * fails); `/up` is a working server whose tool `echo_encoded` gets the page as its call's answer, with the
 * pad of its `pad` argument, and with a public value of the same length in place of the credential when
 * `public` is true (to show that a pad really puts the cut inside it).
 * @module
 */
import { WebStandardStreamableHTTPServerTransport } from "../../../../lib/mcp/sdk.ts";
import { McpServer } from "../../../../lib/mcp/sdk_client.ts";
import { z } from "zod";

/** The credential the test configures, as in the security finding's repro (32 characters). */
export const ECHOED_TOKEN = "SECRET-GW-TOKEN-0123456789abcdef";
/** Not a secret, as long as the token: echoed instead when a call asks for `public`. */
export const PUBLIC_VALUE = "PUBLIC-GW-VALUE-0123456789abcdef";

/** `text` with every character written as a hexadecimal character reference. */
export function asReferences(text: string): string {
  return Array.from(text, (char) => `&#x${char.codePointAt(0)!.toString(16)};`).join("");
}

/** The finding's page: `<html><body><p>`, `pad` × `x`, a space, the encoded value, then more text. */
export function echoPage(value: string, pad: number): Response {
  const body = `<html><body><p>${"x".repeat(pad)} ${asReferences(value)}</p>` +
    `<p>${"The request was refused. ".repeat(40)}</p></body></html>`;
  return new Response(body, { status: 500, headers: { "content-type": "text/html" } });
}

/** A running echo server: `url(path)` is the address of `/fail/<pad>` or `/up`. */
export interface EchoServer extends AsyncDisposable {
  url(path: string): string;
}

/** Starts the server on a free port. */
export function startEntityEcho(): EchoServer {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const credential = (request.headers.get("authorization") ?? "").replace(/^Bearer /, "");
    const path = new URL(request.url).pathname;
    const failing = path.match(/^\/fail\/(\d+)$/);
    if (failing) return echoPage(credential, Number(failing[1]));
    // Stateless: no standalone GET stream (an idle one would hold shutdown() open).
    if (request.method !== "POST") return new Response("Method Not Allowed", { status: 405 });
    const message = await request.clone().json().catch(() => ({}));
    if (message?.method === "tools/call" && message.params?.name === "echo_encoded") {
      const { pad, public: shown } = message.params.arguments ?? {};
      return echoPage(shown ? PUBLIC_VALUE : credential, Number(pad));
    }
    const mcp = new McpServer({ name: "entity-echo", version: "1.0.0" });
    mcp.registerTool("echo_encoded", {
      description: "Fails with a page echoing the credential",
      inputSchema: { pad: z.number(), public: z.boolean().optional() },
    }, () => ({ content: [{ type: "text", text: "never reached" }] }));
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await mcp.connect(transport);
    return await transport.handleRequest(request);
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  return { url: (path) => `${base}${path}`, [Symbol.asyncDispose]: () => server.shutdown() };
}
