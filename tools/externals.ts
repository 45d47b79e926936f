/** External programs the servers use, as doctor reports them. */
import { locateRipgrep, RIPGREP_HINT } from "../lib/ripgrep/locate.ts";
import { findBackend, INSTALL_HINT, ISOLATION_FLAGS } from "../mcp/sql/backend.ts";

/** One external program and whether it was found. */
export interface External {
  name: string;
  found: boolean;
  /** A missing required tool fails doctor; a missing optional one is a warning with its install hint. */
  required: boolean;
  /** Version and path when found, else the install hint. */
  detail: string;
}

/** Finds every external program a server of this toolkit can use. */
export async function findExternals(): Promise<External[]> {
  const rg = await locateRipgrep();
  return [
    {
      name: "ripgrep",
      found: rg !== null,
      required: true,
      detail: rg ? `${rg.version} (${rg.source}) ${rg.path}` : `not found: ${RIPGREP_HINT}`,
    },
    await sqruff(),
    await sqlBackend(),
  ];
}

/**
 * sqruff, the sql server's primary engine: which one, where it was found (SQRUFF_PATH, beside the servers as
 * the release archives ship it, PATH) and its version, with a warning when it lacks the flags that isolate it.
 */
export async function sqruff(
  env: Record<string, string | undefined> = Deno.env.toObject(),
): Promise<External> {
  const base = { name: "sqruff", required: false };
  try {
    const found = await findBackend({ ...env, SQL_MCP_BACKEND: "sqruff" });
    if (!found) {
      return { ...base, found: false, detail: `not found (sql-mcp falls back to sqlfluff): ${SQRUFF_HINT}` };
    }
    const where = `${found.version} (${found.source === "beside" ? "bundled" : found.source}) ${found.path}`;
    // From 0.44 on sqruff reads parent folders' configs unless --ignore-local-config; before 0.40 it has no
    // --library-path none to keep jinja libraries out (mcp/sql/backend.ts, ISOLATION_FLAGS).
    const minor = Number(found.version.split(".")[1] ?? 0);
    const needed = found.major > 0 || minor >= 44 ? ISOLATION_FLAGS : ["--library-path"];
    const missing = needed.filter((flag) => !found.flags?.includes(flag));
    if (missing.length === 0) return { ...base, found: true, detail: where };
    return {
      ...base,
      found: false,
      detail: `${where}: has no ${missing.join(", ")}, so it cannot be isolated; use 0.44`,
    };
  } catch (error) {
    return { ...base, found: false, detail: error instanceof Error ? error.message : String(error) };
  }
}

const SQRUFF_HINT = "`pip install sqruff`, `cargo install sqruff`, or SQRUFF_PATH";

/** sqruff or sqlfluff, as the sql server would pick it; optional: without one only sql-mcp is limited. */
async function sqlBackend(): Promise<External> {
  const base = { name: "sql backend", required: false };
  try {
    const backend = await findBackend(Deno.env.toObject());
    if (backend) {
      const source = backend.source === "beside" ? "bundled" : backend.source;
      return {
        ...base,
        found: true,
        detail: `${backend.kind} ${backend.version} (${source}) ${backend.path}`,
      };
    }
    return { ...base, found: false, detail: `none found: ${INSTALL_HINT}` };
  } catch (error) {
    return { ...base, found: false, detail: error instanceof Error ? error.message : String(error) };
  }
}
