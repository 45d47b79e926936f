/**
 * The user's sandbox settings, from the only two places the user (never the model, never the workspace)
 * controls: environment variables set in the MCP client's server config, and the file
 * `<config>/continue-mcp/sandbox.json` with the same keys. The file is read only when it and its folder are
 * ours and not writable by others; an untrusted file is ignored and said so. Env wins over the file for
 * single values; lists are merged.
 * @module
 */
import { platform } from "../platform/mod.ts";
import { ownUid } from "../fs/private_dir.ts";
import type { SandboxMode } from "./plan.ts";

/** How the network is configured, before the policy resolves domains. */
export type NetworkSetting = "off" | "on" | "allow";

/** What the user configured. */
export interface SandboxConfig {
  mode: SandboxMode;
  /** Where `mode` came from, for the status line: `MCP_SANDBOX=off`, `sandbox.json`, `default`. */
  modeSource: string;
  /** Extra writable folders (absolute, `~` expanded). */
  write: string[];
  /** Extra folders and files no job may read. */
  denyRead: string[];
  network: NetworkSetting;
  /** Domains added to the default allow-list. */
  domains: string[];
  /** What was wrong with the settings (ignored values, an untrusted file): said at start. */
  problems: string[];
}

/** The variable names, which are also the keys of sandbox.json. */
export const SETTINGS = {
  mode: "MCP_SANDBOX",
  write: "MCP_SANDBOX_WRITE",
  denyRead: "MCP_SANDBOX_DENY_READ",
  network: "MCP_SANDBOX_NETWORK",
  domains: "MCP_SANDBOX_DOMAINS",
} as const;

const MODES: readonly SandboxMode[] = ["auto", "require", "off"];
const NETWORKS: readonly NetworkSetting[] = ["off", "on", "allow"];

/** Where the settings file is: `<config>/continue-mcp/sandbox.json`. */
export function settingsFile(configDir: string): string {
  return platform.path.join(configDir, "continue-mcp", "sandbox.json");
}

/** Reads the settings: `env` (the server's environment) and, when given and trusted, the file. */
export async function readSandboxConfig(
  env: Record<string, string | undefined>,
  configDir: string | undefined,
): Promise<SandboxConfig> {
  const problems: string[] = [];
  const file = configDir ? await readSettingsFile(settingsFile(configDir), problems) : {};
  const home = env.HOME;
  const pick = (key: keyof typeof SETTINGS) => {
    const name = SETTINGS[key];
    const fromEnv = env[name]?.trim();
    if (fromEnv) return { value: fromEnv as unknown, source: `${name}=${fromEnv}` };
    return name in file ? { value: file[name], source: `${name} in sandbox.json` } : undefined;
  };
  const list = (key: keyof typeof SETTINGS, split: RegExp) => {
    const name = SETTINGS[key];
    return [...toList(env[name], split), ...toList(file[name], split)];
  };
  const paths = (key: keyof typeof SETTINGS) =>
    list(key, new RegExp(`[${platform.listSeparator}\\n]`)).flatMap((path) => {
      const expanded = home && (path === "~" || path.startsWith("~/"))
        ? platform.path.join(home, path.slice(1))
        : path;
      if (platform.path.isAbsolute(expanded)) return [platform.path.normalize(expanded)];
      problems.push(`${SETTINGS[key]}: ignored "${path}" (not an absolute path)`);
      return [];
    });

  // A value we cannot read never weakens the sandbox: a bad mode means require, a bad network means off.
  const mode = choice(pick("mode"), MODES, { unset: "auto", invalid: "require" }, problems);
  const network = choice(pick("network"), NETWORKS, { unset: "allow", invalid: "off" }, problems);
  return {
    mode: mode.value,
    modeSource: mode.source,
    write: paths("write"),
    denyRead: paths("denyRead"),
    network: network.value,
    domains: list("domains", /[\s,]+/).map((domain) => domain.toLowerCase()),
    problems,
  };
}

/** A single-valued setting: its value and where it came from, or the fallback for unset or invalid. */
function choice<T extends string>(
  picked: { value: unknown; source: string } | undefined,
  allowed: readonly T[],
  fallback: { unset: T; invalid: T },
  problems: string[],
): { value: T; source: string } {
  if (!picked) return { value: fallback.unset, source: "default" };
  const value = String(picked.value).toLowerCase() as T;
  if (allowed.includes(value)) return { value, source: picked.source };
  problems.push(`${picked.source}: not one of ${allowed.join("|")}; using ${fallback.invalid}`);
  return { value: fallback.invalid, source: `${picked.source} (invalid)` };
}

function toList(value: unknown, split: RegExp): string[] {
  if (Array.isArray(value)) {
    return value.filter((item) => typeof item === "string").map((item) => item.trim());
  }
  if (typeof value !== "string") return [];
  return value.split(split).map((item) => item.trim()).filter(Boolean);
}

/**
 * The file's keys, or {} when it is missing, unreadable, untrusted (not ours, or writable by others: someone
 * else could widen our sandbox) or not a JSON object; each such case is a problem said at start.
 */
async function readSettingsFile(path: string, problems: string[]): Promise<Record<string, unknown>> {
  let text: string;
  try {
    const uid = await ownUid().catch(() => null);
    for (const checked of [platform.path.dirname(path), path]) {
      const info = await Deno.stat(checked);
      if (uid !== null && info.uid !== null && info.uid !== uid) {
        throw new Error(`"${checked}" belongs to another user (uid ${info.uid})`);
      }
      if (info.mode !== null && (info.mode & 0o022) !== 0) {
        throw new Error(`"${checked}" is writable by other users; chmod go-w it`);
      }
    }
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return {};
    problems.push(`ignored ${path}: ${error instanceof Error ? error.message : String(error)}`);
    return {};
  }
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed;
    problems.push(`ignored ${path}: not a JSON object`);
  } catch (error) {
    problems.push(`ignored ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return {};
}
