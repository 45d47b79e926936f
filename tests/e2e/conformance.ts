/**
 * `deno task conformance [name...]`: runs the MCP conformance suite (`server --url`, active suite) against
 * every server (or the named ones) started with `--http 127.0.0.1:0 --no-auth`, and fails on any failing scenario not
 * in conformance_expected.yaml, or on an entry there that now passes. Prints one line per server.
 * The suite runs under Deno (it needs Node 22; CI has 20), pinned by its own lock file, loopback only.
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { listServers } from "../../tools/catalog.ts";
import { spawnHttp } from "../_support/http.ts";

const SUITE = "npm:@modelcontextprotocol/conformance@0.1.16";
const HERE = fileURLToPath(new URL(".", import.meta.url));
const EXPECTED = join(HERE, "conformance_expected.yaml");

/** The suite's verdict on one server. */
interface ServerResult {
  name: string;
  passed: string[];
  failed: string[];
  /** The suite's exit code: non-zero on an unexpected failure or a stale expected entry. */
  code: number;
  output: string;
}

/** Runs the suite against `url`; results (one checks.json per scenario) go to `outputDir`. */
async function runSuite(url: string, outputDir: string): Promise<{ code: number; output: string }> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-config",
      `--lock=${join(HERE, "conformance.lock")}`,
      "--frozen",
      "--quiet",
      "--no-prompt",
      "--allow-net=127.0.0.1,localhost",
      "--allow-read",
      `--allow-write=${outputDir}`,
      "--allow-env",
      "--allow-sys",
      SUITE,
      "server",
      "--url",
      url,
      "--expected-failures",
      EXPECTED,
      "--output-dir",
      outputDir,
    ],
    env: { NO_COLOR: "1" },
    stdin: "null",
  }).output();
  const decoder = new TextDecoder();
  return { code, output: decoder.decode(stdout) + decoder.decode(stderr) };
}

/** A scenario passes when none of its checks is a FAILURE or a WARNING, as the suite's baseline counts it. */
async function readVerdicts(outputDir: string): Promise<{ passed: string[]; failed: string[] }> {
  const passed: string[] = [];
  const failed: string[] = [];
  for await (const entry of Deno.readDir(outputDir)) {
    // server-<scenario>-<ISO timestamp>
    const scenario = entry.name.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, "");
    const checks: { status: string }[] = JSON.parse(
      await Deno.readTextFile(join(outputDir, entry.name, "checks.json")),
    );
    const ok = checks.every((check) => check.status !== "FAILURE" && check.status !== "WARNING");
    (ok ? passed : failed).push(scenario);
  }
  return { passed: passed.sort(), failed: failed.sort() };
}

/** This is a command-line report, not a server: stdout is free here (the lint rule guards servers). */
function print(line: string): void {
  Deno.stdout.writeSync(new TextEncoder().encode(`${line}\n`));
}

async function checkServer(name: string, workspace: string, gatewayConfig: string): Promise<ServerResult> {
  await using server = await spawnHttp(name, {
    cwd: workspace,
    env: { MCP_WORKSPACE: workspace, ...(name === "gateway" ? { MCP_GATEWAY_CONFIG: gatewayConfig } : {}) },
    // The suite's `server` command sends no Authorization header (0.1.16 has no --header option, and its
    // dns-rebinding scenario needs raw Host headers no header-adding proxy would keep): loopback, no token.
    auth: "none",
  });
  const outputDir = await Deno.makeTempDir({ prefix: `conformance-${name}-` });
  try {
    const { code, output } = await runSuite(server.url, outputDir);
    return { name, code, output, ...await readVerdicts(outputDir) };
  } finally {
    await Deno.remove(outputDir, { recursive: true });
  }
}

if (import.meta.main) {
  const wanted = Deno.args;
  const servers = listServers().filter((server) => wanted.length === 0 || wanted.includes(server.name));
  const unknown = wanted.filter((name) => !servers.some((server) => server.name === name));
  if (unknown.length) throw new Error(`No server "${unknown[0]}" under mcp/`);
  const workspace = await Deno.makeTempDir({ prefix: "conformance-workspace-" });
  const gatewayConfig = join(workspace, "gateway.json");
  // The gateway hosts one builtin server, so its catalog is not empty.
  await Deno.writeTextFile(gatewayConfig, JSON.stringify({ mcpServers: { hello: { builtin: "hello" } } }));
  const expected = new Set(
    [...(await Deno.readTextFile(EXPECTED)).matchAll(/^\s*- ([a-z0-9-]+)/gm)].map((match) => match[1]),
  );
  let failures = 0;
  try {
    for (const { name } of servers) {
      const result = await checkServer(name, workspace, gatewayConfig);
      const total = result.passed.length + result.failed.length;
      const unexpected = result.failed.filter((scenario) => !expected.has(scenario));
      const stale = result.passed.filter((scenario) => expected.has(scenario));
      print(
        `conformance ${name}: ${result.passed.length}/${total} scenarios pass, ` +
          `${result.failed.length - unexpected.length} expected failures, ${unexpected.length} unexpected` +
          (unexpected.length ? ` (${unexpected.join(", ")})` : "") +
          (stale.length ? `, stale expected entries: ${stale.join(", ")}` : "") +
          ` - passing: ${result.passed.join(", ")}`,
      );
      if (result.code !== 0) {
        failures++;
        print(result.output.slice(result.output.indexOf("=== SUMMARY ===")));
      }
    }
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
  print(failures ? `conformance: ${failures} server(s) with unexpected results` : "conformance: ok");
  Deno.exit(failures ? 1 : 0);
}
