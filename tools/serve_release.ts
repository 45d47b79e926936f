/**
 * `deno run --allow-read --allow-net=127.0.0.1 tools/serve_release.ts DIR [PORT]`: serves a folder of release
 * assets on 127.0.0.1 at the URLs GitHub uses (`/releases/latest/download/<file>`,
 * `/releases/download/<tag>/<file>`), so the installers run against a local release: in the installer
 * tests and in the release workflow's smoke jobs, before anything is published.
 * @module
 */
import { join } from "node:path";

/** A running release server; `releases` is what the installers take in `CONTINUE_MCP_RELEASES`. */
export interface ReleaseServer extends AsyncDisposable {
  releases: string;
  /** Every path requested so far. */
  requested: string[];
}

/** Serves `assets` until disposed. */
export function serveReleaseFolder(assets: string, port = 0): ReleaseServer {
  const requested: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port, onListen: () => {} }, async (request) => {
    const path = new URL(request.url).pathname;
    requested.push(path);
    const file = path.match(/^\/releases\/(?:latest\/download|download\/[^/]+)\/([^/]+)$/)?.[1];
    if (!file) return new Response("not found", { status: 404 });
    try {
      return new Response(await Deno.readFile(join(assets, file)));
    } catch {
      return new Response("not found", { status: 404 });
    }
  });
  return {
    releases: `http://127.0.0.1:${server.addr.port}/releases`,
    requested,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

if (import.meta.main) {
  const [assets, port] = Deno.args;
  if (!assets || Deno.args.length > 2) throw new Error("Usage: serve_release.ts DIR [PORT]");
  const served = serveReleaseFolder(assets, Number(port ?? 0));
  Deno.stdout.writeSync(new TextEncoder().encode(`${served.releases}\n`));
}
