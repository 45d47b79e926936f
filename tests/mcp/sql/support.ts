/** Shared fixtures of the sql server tests: the real backends on PATH and a server over a temp workspace. */
import { createServer } from "../../../mcp/sql/server.ts";
import { type Backend, findBackend } from "../../../mcp/sql/backend.ts";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import type { McpServerHandle } from "../../../lib/mcp/server.ts";

const env = Deno.env.toObject();

/** sqlfluff on PATH (CI installs Debian's with apt), or null: its tests then report as ignored. */
export const SQLFLUFF: Backend | null = await findBackend({ ...env, SQL_MCP_BACKEND: "sqlfluff" });
/** sqruff on PATH, or null (not installable on the CI machine: its real-run tests are ignored there). */
export const SQRUFF: Backend | null = await findBackend({ ...env, SQL_MCP_BACKEND: "sqruff" });

/** Each real backend with whether it is installed: the end-to-end tests run once per backend. */
export const BACKENDS: {
  kind: "sqlfluff" | "sqruff";
  found: Backend | null;
  /** The workspace config name that overrides the house style. */
  config: string;
  /** How the parse error of {@link BAD} reads (regex source): sqruff words and places it its own way. */
  parseError: string;
}[] = [
  {
    kind: "sqlfluff",
    found: SQLFLUFF,
    config: ".sqlfluff",
    parseError: "1:18 PRS Line 1, Position 18: Found unparsable section: 'where'",
  },
  { kind: "sqruff", found: SQRUFF, config: ".sqruff", parseError: "1:\\d+ PRS \\S.*" },
];

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

/** A sql server over `cwd` using the given backend kind (or the environment's choice). */
export function sqlServer(
  cwd: string,
  options: {
    kind?: "sqruff" | "sqlfluff";
    env?: Record<string, string>;
    timeoutMs?: number;
    concurrency?: number;
    tempDir?: string;
  } = {},
): McpServerHandle {
  return createServer({
    workspace: new Workspace({ cwd }),
    env: { ...env, ...(options.kind ? { SQL_MCP_BACKEND: options.kind } : {}), ...options.env },
    timeoutMs: options.timeoutMs ?? 60_000,
    concurrency: options.concurrency,
    tempDir: options.tempDir,
  });
}
