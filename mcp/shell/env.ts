/** The environment a job sees: the server's (or only its allowlisted part), the call's overlay, our markers. */
import { ToolError } from "../../lib/mcp/errors.ts";
import { isHttpEnvName } from "../../lib/mcp/serve_args.ts";

/** Name of the variable that tags every process of a job, so escapees from its process group are found. */
export const MARKER_NAME = "SHELL_MCP_JOB";

/** What {@link jobEnv} returns: pass as `env` and `clearEnv` to `Deno.Command`. */
export interface JobEnv {
  env: Record<string, string>;
  clearEnv: boolean;
}

/** Options of {@link jobEnv}. */
export interface JobEnvOptions {
  /** The server's environment (read when an allowlist is set, or when it holds HTTP mode's variables). */
  serverEnv: Record<string, string>;
  /** Parsed `SHELL_MCP_ENV_ALLOW`: names or `*` globs; undefined passes everything through. */
  allow?: readonly string[];
  /** The call's `env` argument. */
  overlay?: Record<string, string>;
  /** `NAME=value` marker. */
  marker: string;
  /**
   * Sandboxed: without an allowlist, the server's variables named like credentials stay out (the sandbox
   * hides ~/.aws; `AWS_SECRET_ACCESS_KEY` in the environment must not be the way around it).
   */
  hideCredentials?: boolean;
}

/** Names of credentials: `GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`, `OPENAI_API_KEY`, `PGPASSWORD`… */
const CREDENTIAL_NAME =
  /TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIAL|AUTH/i;

/** Whether a variable's name says it holds a credential. */
export function isCredentialName(name: string): boolean {
  return CREDENTIAL_NAME.test(name);
}

/**
 * Builds a job's environment: `NO_COLOR=1` unless the overlay says otherwise, and the marker always. HTTP
 * mode's variables (`MCP_HTTP_TOKEN`: whoever holds it runs tools as the server's user) never pass, even on an
 * allowlist: serve() removed them from the process already, and should one be back, the job starts from a
 * cleared environment without it instead of inheriting it.
 */
export function jobEnv(options: JobEnvOptions): JobEnv {
  assertValidEnv(options.overlay ?? {});
  const [markerName, markerValue] = splitMarker(options.marker);
  const server = Object.entries(options.serverEnv).filter(([name]) => !isHttpEnvName(name));
  const hasHttpEnv = server.length < Object.keys(options.serverEnv).length;
  let base: Record<string, string> = {};
  if (options.allow) {
    const patterns = options.allow.map(globToRegExp);
    for (const [name, value] of server) {
      if (patterns.some((pattern) => pattern.test(name))) base[name] = value;
    }
  } else if (options.hideCredentials) {
    base = Object.fromEntries(server.filter(([name]) => !isCredentialName(name)));
  } else if (hasHttpEnv) base = Object.fromEntries(server);
  return {
    env: { ...base, NO_COLOR: "1", ...options.overlay, [markerName]: markerValue },
    clearEnv: options.allow !== undefined || hasHttpEnv || !!options.hideCredentials,
  };
}

/** Refuses what no OS can pass: an empty name, `=` or NUL in a name, NUL in a value. */
export function assertValidEnv(overlay: Record<string, string>): void {
  for (const [name, value] of Object.entries(overlay)) {
    if (name === "" || name.includes("=") || name.includes("\0")) {
      throw new ToolError(
        "invalid_argument",
        `Cannot set env variable ${
          JSON.stringify(capName(name))
        }: a name must be non-empty, without "=" or NUL`,
      );
    }
    if (value.includes("\0")) {
      throw new ToolError(
        "invalid_argument",
        `Cannot set env variable "${capName(name)}": its value contains a NUL byte; remove it`,
      );
    }
  }
}

/** `"PATH, LC_*,HOME"` → `["PATH", "LC_*", "HOME"]`; unset or blank → undefined (no allowlist). */
export function parseEnvAllow(value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  return value.split(",").map((part) => part.trim()).filter(Boolean);
}

function splitMarker(marker: string): [string, string] {
  const at = marker.indexOf("=");
  return [marker.slice(0, at), marker.slice(at + 1)];
}

/** Environment names compare case-insensitively: Windows does, and on POSIX no two sane names differ only so. */
function globToRegExp(glob: string): RegExp {
  const source = glob.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*");
  return new RegExp(`^${source}$`, "i");
}

/** A name as echoed in an error: at most 100 characters. */
function capName(name: string): string {
  return name.length > 100 ? `${name.slice(0, 99)}…` : name;
}
