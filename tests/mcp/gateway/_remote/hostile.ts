/**
 * A hostile remote MCP server on 127.0.0.1 for the gateway's leak tests: a real Streamable HTTP server (the
 * SDK's, stateless) whose failures are what a careless or hostile host sends. `failing: "html"` answers every
 * request with a 500 and a 200 KB HTML error page; `failing: "echo"` answers with a 500 whose body echoes
 * every request header (`Authorization` included), as a debug page does. Up, its tools are `ok`, `explode`
 * (the call gets the 200 KB HTML 500) and `leak` (the call gets the header echo).
 * @module
 */
import { WebStandardStreamableHTTPServerTransport } from "../../../../lib/mcp/sdk.ts";
import { McpServer } from "../../../../lib/mcp/sdk_client.ts";

/** A running hostile server; `failing` can be changed while it runs. */
export interface HostileServer extends AsyncDisposable {
  url: string;
  failing: "html" | "echo" | undefined;
  /** The Authorization header values it received. */
  authorizationSeen: string[];
}

/** A 200 KB HTML error page, as a proxy or framework shows one. */
export function htmlErrorPage(): string {
  const rows = Array.from(
    { length: 2_000 },
    (_, i) => `<div class="frame"><span>at handler${i} (/srv/app/routes.js:${i}:7)</span></div>`,
  );
  const page = `<!DOCTYPE html><html><head><title>500 Internal Server Error</title>` +
    `<style>body { font: 14px sans-serif } .frame { color: #900 }</style>` +
    `<script>window.report = function () { return "x".repeat(10) }</script></head>` +
    `<body><h1>Internal Server Error</h1><p>The upstream &amp; its cache failed.</p>${rows.join("\n")}` +
    `</body></html>`;
  return page.padEnd(200_000, " ");
}

function echoHeaders(request: Request): Response {
  const lines = [...request.headers].map(([name, value]) => `${name}: ${value}`);
  return new Response(`upstream refused the request; it carried:\n${lines.join("\n")}`, {
    status: 500,
    headers: { "content-type": "text/plain" },
  });
}

/** Starts the server on a free port. */
export function startHostileServer(): HostileServer {
  const page = htmlErrorPage();
  const html = () => new Response(page, { status: 500, headers: { "content-type": "text/html" } });
  const state: HostileServer = {
    url: "",
    failing: undefined,
    authorizationSeen: [],
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const authorization = request.headers.get("authorization");
    if (authorization) state.authorizationSeen.push(authorization);
    if (state.failing === "html") return html();
    if (state.failing === "echo") return echoHeaders(request);
    // Stateless: no standalone GET stream (an idle one would hold shutdown() open).
    if (request.method !== "POST") return new Response("Method Not Allowed", { status: 405 });
    const message = await request.clone().json().catch(() => ({}));
    const tool = message?.method === "tools/call" ? message.params?.name : undefined;
    if (tool === "explode") return html();
    if (tool === "leak") return echoHeaders(request);
    const mcp = new McpServer({ name: "hostile", version: "1.0.0" });
    for (const name of ["ok", "explode", "leak"]) {
      mcp.registerTool(name, { description: `Tool ${name}` }, () => ({
        content: [{ type: "text", text: `${name} done` }],
      }));
    }
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await mcp.connect(transport);
    return await transport.handleRequest(request);
  });
  state.url = `http://127.0.0.1:${server.addr.port}/mcp`;
  return state;
}
