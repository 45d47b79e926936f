/**
 * The third-party MCP clients the e2e runs our servers under, pinned. Their newest releases need Node ≥ 22
 * (Inspector) and ≥ 24 (mcporter) while CI has Node 20, so npm only installs them (no install scripts)
 * into a git-ignored folder and Deno runs their entry files. `deno run -A tests/e2e/clients/install.ts`
 * installs them ahead of the tests; the tests call {@link ensureClients} too, which is a no-op once done.
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** Exact versions: Inspector 2.12 and mcporter 0.12 send typed argument values (`text=123` as a number). */
export const CLIENT_PACKAGES: Readonly<Record<string, string>> = {
  "@modelcontextprotocol/inspector": "2.12.0",
  "mcporter": "0.12.3",
};

/** The git-ignored folder npm installs into. */
export const INSTALL_DIR: string = fileURLToPath(new URL("./.npm/", import.meta.url));

/** Each client's entry file, run with `deno run -A`. */
export const CLIENT_ENTRIES = {
  inspector: join(
    INSTALL_DIR,
    "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js",
  ),
  mcporter: join(INSTALL_DIR, "node_modules/mcporter/dist/cli.js"),
} as const;

/** Installs the pinned clients unless the folder already holds exactly these versions. */
export async function ensureClients(): Promise<void> {
  const manifest = `${JSON.stringify({ private: true, dependencies: CLIENT_PACKAGES }, null, 2)}\n`;
  const stamp = join(INSTALL_DIR, "installed.json");
  if (await Deno.readTextFile(stamp).catch(() => "") === manifest) return;
  await Deno.mkdir(INSTALL_DIR, { recursive: true });
  await Deno.writeTextFile(join(INSTALL_DIR, "package.json"), manifest);
  const npm = await new Deno.Command("npm", {
    args: ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"],
    cwd: INSTALL_DIR,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!npm.success) {
    const why = new TextDecoder().decode(npm.stderr).trim();
    throw new Error(`npm install of the e2e clients failed in "${INSTALL_DIR}": ${why}`);
  }
  await Deno.writeTextFile(stamp, manifest);
}

if (import.meta.main) {
  await ensureClients();
  for (const [name, version] of Object.entries(CLIENT_PACKAGES)) {
    Deno.stderr.writeSync(new TextEncoder().encode(`e2e client ${name}@${version} in ${INSTALL_DIR}\n`));
  }
}
