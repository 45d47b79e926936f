/**
 * Shared fixtures of the sql server tests: the real backends and a server over a temp workspace. The suite
 * runs once per backend found: sqruff (primary), a current sqlfluff (fallback) and sqlfluff 1.x (Debian's).
 * `.ci/run` installs the first two from PyPI into `.ci/.venv-sql/` and Debian's with apt; `SQRUFF_PATH` /
 * `SQLFLUFF_PATH` (the server's own variables) point the tests at other builds. A backend named in
 * `SQL_MCP_TEST_BACKENDS` that is missing fails `ci_backends_test.ts` instead of being ignored.
 */
import { fileURLToPath } from "node:url";
import { createServer } from "../../../mcp/sql/server.ts";
import { type Backend, backendCandidates, type BackendKind, findBackend } from "../../../mcp/sql/backend.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { isWindows, platform } from "../../../lib/platform/mod.ts";
import type { McpServerHandle } from "../../../lib/mcp/server.ts";

const env = Deno.env.toObject();

/** Where `.ci/run` installs the pinned PyPI backends. */
export const CI_VENV: string = fileURLToPath(new URL("../../../.ci/.venv-sql/", import.meta.url));

/** The executable `name` of the CI venv, when it is there. */
function venvExecutable(name: string): string | undefined {
  const file = isWindows
    ? platform.path.join(CI_VENV, "Scripts", `${name}.exe`)
    : platform.path.join(CI_VENV, "bin", name);
  try {
    return Deno.statSync(file).isFile ? file : undefined;
  } catch {
    return undefined;
  }
}

/** Every runnable executable of `kind`: the variable's, the CI venv's, then PATH's, each once. */
async function installed(kind: BackendKind, variable: string): Promise<Backend[]> {
  const paths = [
    env[variable],
    venvExecutable(kind),
    ...backendCandidates({ ...env, SQL_MCP_BACKEND: kind, [variable]: "" }).map((c) => c.path),
  ]
    .filter((path): path is string => Boolean(path?.trim()));
  const found: Backend[] = [];
  const seen = new Set<string>();
  for (const path of paths) {
    const real = await Deno.realPath(path).catch(() => path);
    if (seen.has(real)) continue;
    seen.add(real);
    // PATH emptied: only this one executable is tried.
    const backend = await findBackend({ ...env, PATH: "", SQL_MCP_BACKEND: kind, [variable]: path });
    if (backend) found.push(backend);
  }
  return found;
}

const sqruffs = await installed("sqruff", "SQRUFF_PATH");
const sqlfluffs = await installed("sqlfluff", "SQLFLUFF_PATH");

/** sqruff: `SQRUFF_PATH`, the CI venv's (0.44.0, PyPI) or PATH's; null when none runs. */
export const SQRUFF: Backend | null = sqruffs[0] ?? null;
/** A current sqlfluff (2.0 or later; CI: 4.5.0 from PyPI), or null. */
export const SQLFLUFF: Backend | null = sqlfluffs.find((b) => b.major >= 2) ?? null;
/** sqlfluff 1.x (CI: Debian bookworm's 1.4.5), or null. */
export const SQLFLUFF_1: Backend | null = sqlfluffs.find((b) => b.major === 1) ?? null;

/** One row of the backend matrix. */
export interface BackendCase {
  /** Test-name prefix: `sqruff`, `sqlfluff`, `sqlfluff-1`. */
  name: string;
  kind: BackendKind;
  /** The backend, or null when it is not installed (its tests then report as ignored). */
  found: Backend | null;
  /** The workspace config name that overrides the house style. */
  config: string;
  /** How the parse error of {@link BAD} reads (regex source): sqruff words and places it its own way. */
  parseError: string;
  /** A rule code as this backend reports it: sqlfluff 1.x has only the old `L010`-style codes. */
  code: (modern: string, legacy: string) => string;
}

const modern = (code: string) => code;
const legacy = (_: string, code: string) => code;

/** Each real backend with whether it is installed: the end-to-end tests run once per backend. */
export const BACKENDS: readonly BackendCase[] = [
  {
    name: "sqruff",
    kind: "sqruff",
    found: SQRUFF,
    config: ".sqruff",
    parseError: "1:\\d+ PRS \\S.*",
    code: modern,
  },
  {
    name: "sqlfluff",
    kind: "sqlfluff",
    found: SQLFLUFF,
    config: ".sqlfluff",
    parseError: "1:18 PRS Line 1, Position 18: Found unparsable section: 'where'.*",
    code: modern,
  },
  {
    name: "sqlfluff-1",
    kind: "sqlfluff",
    found: SQLFLUFF_1,
    config: ".sqlfluff",
    parseError: "1:18 PRS Line 1, Position 18: Found unparsable section: 'where'",
    code: legacy,
  },
];

/** The server's environment that selects exactly `backend`: the variables it reads itself. */
export function backendEnv(backend: Backend): Record<string, string> {
  return {
    SQL_MCP_BACKEND: backend.kind,
    [backend.kind === "sqruff" ? "SQRUFF_PATH" : "SQLFLUFF_PATH"]: backend.path,
  };
}

/** The messy multi-column Snowflake SELECT of the research notes. */
export const MESSY = `SELECT O.Order_ID, O.Customer_Id AS CustID,   SUM(L.Amount) AS Total_Amount,
COUNT(DISTINCT L.Sku) as Sku_Count, IFF(O.Is_Priority = TRUE, 'Y', 'N') AS Priority_Flag,
O.Payload:shipping.city::VARCHAR AS Ship_City, CAST(O.Created_At AS DATE) AS Created_Date, NULL AS Placeholder
FROM Analytics.Orders O
JOIN Analytics.Order_Lines L ON O.Order_ID = L.Order_ID
WHERE O.Status IN ('OPEN','SHIPPED') AND O.Created_At >= DATEADD(DAY, -30, CURRENT_DATE())
GROUP BY 1,2,5,6,7,8
QUALIFY ROW_NUMBER() OVER (PARTITION BY O.Customer_Id ORDER BY Total_Amount DESC) = 1
`;

/** Semi-structured paths and quoted identifiers: their case is data and must survive. */
export const SEMI =
  `SELECT V:Shipping.City::STRING AS C, V:"Quoted Key"::STRING AS D, V['Key'] AS E, "MixedCase" AS F FROM T\n`;

/** SQL that does not parse (`where` without a condition). */
export const BAD = "select a, from t where\n";

/** A sql server over `cwd` using the given backend (or the environment's choice). */
export function sqlServer(
  cwd: string,
  options: {
    backend?: Backend | null;
    env?: Record<string, string>;
    timeoutMs?: number;
    concurrency?: number;
    tempDir?: string;
  } = {},
): McpServerHandle {
  return createServer({
    workspace: new Workspace({ cwd }),
    env: { ...env, ...(options.backend ? backendEnv(options.backend) : {}), ...options.env },
    timeoutMs: options.timeoutMs ?? 60_000,
    concurrency: options.concurrency,
    tempDir: options.tempDir,
  });
}
