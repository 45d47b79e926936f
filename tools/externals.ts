/** External programs the servers use, as doctor reports them. */
import { locateRipgrep, RIPGREP_HINT } from "../lib/ripgrep/locate.ts";
import { findBackend, INSTALL_HINT } from "../mcp/sql/backend.ts";

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
    await sqlBackend(),
  ];
}

/** sqruff or sqlfluff, as the sql server would pick it; optional: without one only sql-mcp is limited. */
async function sqlBackend(): Promise<External> {
  const base = { name: "sql backend", required: false };
  try {
    const backend = await findBackend(Deno.env.toObject());
    if (backend) {
      return { ...base, found: true, detail: `${backend.kind} ${backend.version} ${backend.path}` };
    }
    return { ...base, found: false, detail: `none found: ${INSTALL_HINT}` };
  } catch (error) {
    return { ...base, found: false, detail: error instanceof Error ? error.message : String(error) };
  }
}
