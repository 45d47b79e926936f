/**
 * Peer MCP servers for side-by-side benchmarks: Desktop Commander and the reference filesystem and memory
 * servers, installed from npm into the gitignored `bench/.peers/` on first use and started over stdio.
 * @module
 */
import { dirname, join } from "node:path";
import { requireRipgrep } from "../../lib/ripgrep/locate.ts";
import { Client, StdioClientTransport } from "../../lib/mcp/sdk_client.ts";
import { REPO_ROOT } from "../../tools/catalog.ts";
import { type LineClient, startLineClient, type StdioCommand } from "./line_client.ts";

/** The peers we compare against. */
export type PeerKind = "desktop-commander" | "filesystem" | "memory" | "ripgrep";

const PACKAGES: Record<PeerKind, { name: string; version: string; bin: string }> = {
  "desktop-commander": { name: "@wonderwhy-er/desktop-commander", version: "0.2.52", bin: "dist/index.js" },
  "filesystem": {
    name: "@modelcontextprotocol/server-filesystem",
    version: "2026.8.31",
    bin: "dist/index.js",
  },
  "memory": { name: "@modelcontextprotocol/server-memory", version: "2026.8.31", bin: "dist/index.js" },
  // Shells out to `rg` on PATH: startPeer puts our pinned @vscode/ripgrep binary first on it.
  "ripgrep": { name: "mcp-ripgrep", version: "0.4.0", bin: "dist/index.js" },
};

/** Pinned versions, for the report. */
export function peerVersion(kind: PeerKind): string {
  return `${PACKAGES[kind].name}@${PACKAGES[kind].version}`;
}

/** A loopback port nothing listens on: any HTTP(S) call a peer tries fails fast instead of leaving the box. */
const DEAD_PROXY = "http://127.0.0.1:9";

const PEERS_DIR = join(REPO_ROOT, "bench", ".peers");

/** A started peer server. */
export interface Peer {
  client: Client;
  /** The child's pid, for RSS readings. */
  pid: number | null;
  close(): Promise<void>;
}

/** Whether the peer is already installed under `bench/.peers/` (benches that must not install check this). */
export function peerInstalled(kind: PeerKind): boolean {
  try {
    Deno.statSync(join(PEERS_DIR, "node_modules", PACKAGES[kind].name, PACKAGES[kind].bin));
    return true;
  } catch {
    return false;
  }
}

/** How a peer is started, and how to remove its sandbox HOME afterwards. */
interface PeerCommand {
  command: StdioCommand;
  cleanup(): Promise<void>;
}

/** Installs (once) and prepares a peer with `workspace` as its allowed folder; its HOME is a sandbox. */
async function peerCommand(kind: PeerKind, options: { workspace: string }): Promise<PeerCommand> {
  const pkg = PACKAGES[kind];
  const entry = join(PEERS_DIR, "node_modules", pkg.name, pkg.bin);
  await ensureInstalled(entry);
  const home = await Deno.makeTempDir({ prefix: "peer-home-" });
  const args = [entry];
  if (kind === "desktop-commander") {
    // Telemetry off and no onboarding, in a throwaway HOME: it reads its config from ~/.claude-server-commander.
    await Deno.mkdir(join(home, ".claude-server-commander"), { recursive: true });
    await Deno.writeTextFile(
      join(home, ".claude-server-commander", "config.json"),
      JSON.stringify({
        telemetryEnabled: false,
        allowedDirectories: [options.workspace],
        pendingWelcomeOnboarding: false,
        welcomeOnboardingEligible: false,
        defaultShell: "/bin/bash",
        blockedCommands: [],
        fileReadLineLimit: 1000,
        fileWriteLineLimit: 50,
      }),
    );
    args.push("--no-onboarding");
  } else if (kind === "filesystem") {
    args.push(options.workspace);
  }
  const rg = kind === "ripgrep" ? (await requireRipgrep()).path : "";
  const path = [rg ? dirname(rg) : "", Deno.env.get("PATH") ?? ""].filter(Boolean).join(":");
  return {
    command: {
      command: "node",
      args,
      cwd: options.workspace,
      env: {
        PATH: path,
        HOME: home,
        HTTP_PROXY: DEAD_PROXY,
        HTTPS_PROXY: DEAD_PROXY,
        http_proxy: DEAD_PROXY,
        https_proxy: DEAD_PROXY,
        NO_PROXY: "",
        DO_NOT_TRACK: "1",
        // Desktop Commander fetches feature flags with fetch() whatever telemetryEnabled says, and Node 20's
        // fetch ignores HTTP(S)_PROXY: point the flag URL itself at the dead port.
        DC_FLAG_URL: `${DEAD_PROXY}/flags.json`,
        USERPROFILE: home,
        NODE_ENV: "production",
        // The memory server keeps its graph next to its own code unless told otherwise.
        MEMORY_FILE_PATH: join(home, "memory.jsonl"),
      },
    },
    cleanup: () => Deno.remove(home, { recursive: true }).catch(() => {}),
  };
}

/** Installs (once) and starts a peer behind the SDK's client. */
export async function startPeer(kind: PeerKind, options: { workspace: string }): Promise<Peer> {
  const { command, cleanup } = await peerCommand(kind, options);
  const transport = new StdioClientTransport({ ...command, stderr: "ignore" });
  const client = new Client({ name: "bench", version: "0.0.0" });
  await client.connect(transport);
  return {
    client,
    pid: transport.pid,
    async close() {
      await client.close();
      await cleanup();
    },
  };
}

/** Installs (once) and starts a peer behind the bare JSON-lines client (`line_client.ts`). */
export async function startPeerLines(kind: PeerKind, options: { workspace: string }): Promise<LineClient> {
  const { command, cleanup } = await peerCommand(kind, options);
  const client = await startLineClient(command).catch(async (error) => {
    await cleanup();
    throw error;
  });
  return {
    ...client,
    async close() {
      await client.close();
      await cleanup();
    },
  };
}

async function ensureInstalled(entry: string): Promise<void> {
  try {
    await Deno.stat(entry);
    return;
  } catch {
    // Install below.
  }
  await Deno.mkdir(PEERS_DIR, { recursive: true });
  await Deno.writeTextFile(join(PEERS_DIR, "package.json"), '{"name":"peers","private":true}\n');
  const specs = Object.values(PACKAGES).map((p) => `${p.name}@${p.version}`);
  // --ignore-scripts: Desktop Commander pulls puppeteer, whose postinstall downloads a browser.
  const { success } = await new Deno.Command("npm", {
    args: ["install", "--no-audit", "--no-fund", "--ignore-scripts", ...specs],
    cwd: PEERS_DIR,
    env: { PUPPETEER_SKIP_DOWNLOAD: "1" },
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!success) throw new Error(`npm install of the benchmark peers failed in ${PEERS_DIR}`);
}
