/**
 * First start of a server on an empty Deno cache: time to the tools/list answer and the `Download` lines
 * Deno printed. `deno run -A bench/cold_start.ts [--warm] [--cached-only] [name...]` (default hello, search):
 * each server gets a fresh DENO_DIR; `--warm` first fills it the way `deno task doctor` does (timed apart),
 * `--cached-only` starts the way the installed wrappers do. Starts without `--quiet`, so downloads show.
 * @module
 */
import { Client, StdioClientTransport } from "../lib/mcp/sdk_client.ts";
import { listServers } from "../tools/catalog.ts";
import { warmCache } from "../tools/warm_cache.ts";

const encoder = new TextEncoder();
const print = (line: string) => Deno.stdout.writeSync(encoder.encode(`${line}\n`));

const warm = Deno.args.includes("--warm");
const cachedOnly = Deno.args.includes("--cached-only");
const names = Deno.args.filter((arg) => !arg.startsWith("--"));
const servers = listServers().filter((server) =>
  (names.length ? names : ["hello", "search"]).includes(server.name)
);

print(
  `mode: ${warm ? "doctor's warm-up, then " : ""}deno run${
    cachedOnly ? " --cached-only" : ""
  }, fresh DENO_DIR`,
);
print("server  warm-up  start to tools/list  Download lines");
for (const server of servers) {
  const denoDir = await Deno.makeTempDir({ prefix: "continue-mcp-cold-start-" });
  try {
    const env = { ...Deno.env.toObject(), DENO_DIR: denoDir };
    let warmMs = 0;
    if (warm) {
      const started = performance.now();
      const warmed = await warmCache([server], { env });
      if (!warmed.ok) throw new Error(warmed.error);
      warmMs = performance.now() - started;
    }
    const args = [
      "run",
      "--no-prompt",
      ...(cachedOnly ? ["--cached-only"] : []),
      ...server.permissions,
      server.entry,
    ];
    const transport = new StdioClientTransport({ command: Deno.execPath(), args, env, stderr: "pipe" });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Uint8Array) => stderr += new TextDecoder().decode(chunk));
    const client = new Client({ name: "cold-start-bench", version: "0.0.0" });
    const started = performance.now();
    await client.connect(transport);
    await client.listTools();
    const startMs = performance.now() - started;
    await client.close();
    const downloads = stderr.split("\n").filter((line) => line.includes("Download")).length;
    const warmText = warm ? `${(warmMs / 1000).toFixed(1)} s` : "-";
    print(
      `${server.name.padEnd(6)}  ${warmText.padStart(7)}  ${
        `${(startMs / 1000).toFixed(2)} s`.padStart(19)
      }  ${downloads}`,
    );
  } finally {
    await Deno.remove(denoDir, { recursive: true });
  }
}
