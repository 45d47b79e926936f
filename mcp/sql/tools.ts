/** The sql server's tool table: sql_format and sql_lint over one discovered backend. */
import { z } from "zod";
import { defineTool, type ToolDefinition } from "../../lib/mcp/tool.ts";
import { ToolError } from "../../lib/mcp/errors.ts";
import type { Workspace } from "../../lib/workspace/workspace.ts";
import { type Backend, type BackendEnv, definedEnv, findBackend, missingBackendMessage } from "./backend.ts";
import { type ChosenConfig, coreValue } from "./config.ts";
import { chooseConfig } from "./workspace_config.ts";
import { DEFAULT_DIALECT, type SqlInput } from "./engine.ts";
import { type BatchOptions, formatBatch, lintBatch } from "./batch.ts";
import { scaledTimeoutMs } from "./timeout.ts";
import { collectInputs, type InputArgs } from "./inputs.ts";
import { type FormattedItem, renderFormatted, renderLint, renderWritten, type RunLabel } from "./render.ts";
import { saveFormatted } from "./save_formatted.ts";
import { FileLocks } from "../../lib/fs/file_lock.ts";

/** What the tools need. */
export interface SqlDeps {
  workspace: Workspace;
  /** Where backend discovery looks (`PATH`, `SQL_MCP_BACKEND`, `SQRUFF_PATH`, `SQLFLUFF_PATH`). */
  env: BackendEnv;
  /** Time a call may take (`SQL_MCP_TIMEOUT_MS`); by default it scales with the input. */
  timeoutMs?: number;
  /** Backend processes at once; default: the core count. */
  concurrency?: number;
  /** Where each run's temp working folder is made; default: the OS temp folder. */
  tempDir?: string;
}

const DIALECT = /^[a-z][a-z0-9_]{0,39}$/;
const RULE = /^[A-Za-z][A-Za-z0-9_.]{0,59}$/;

const inputShape = {
  sql: z.string().optional(),
  path: z.string().optional().describe("Workspace file or folder of .sql files"),
  paths: z.array(z.string()).optional(),
  dialect: z.string().optional().describe("Default: snowflake, or the workspace config's"),
};

/** The tools, closed over their dependencies. */
export function createTools(deps: SqlDeps): ToolDefinition[] {
  const locks = new FileLocks();
  let discovery: Promise<Backend | null> | undefined;
  const backendFor = async (action: string, signal: AbortSignal): Promise<Backend> => {
    try {
      discovery ??= findBackend(deps.env, { signal });
      const backend = await discovery;
      if (backend) return backend;
    } catch (error) {
      discovery = undefined;
      throw new ToolError("unavailable", `${action}: ${error instanceof Error ? error.message : error}`);
    }
    discovery = undefined; // Installed later? Look again next call.
    throw new ToolError("unavailable", `${action}: ${missingBackendMessage(deps.env)}`);
  };

  const prepare = async (
    args: InputArgs & { dialect?: string },
    action: string,
    { step, signal, progress }: {
      step: "lint" | "format";
      signal: AbortSignal;
      progress: (message: string) => void;
    },
  ) => {
    const dialect = args.dialect?.trim().toLowerCase() || undefined; // "Snowflake" means snowflake
    if (dialect !== undefined && !DIALECT.test(dialect)) {
      throw new ToolError(
        "invalid_argument",
        `${action}: "${args.dialect}" is not a dialect name; use e.g. snowflake, postgres, bigquery, ansi`,
      );
    }
    const inputs = await collectInputs(args, deps.workspace, action);
    const backend = await backendFor(action, signal);
    await deps.workspace.ready(); // The client's roots decide which root's config applies.
    const config = await chooseConfig(backend, deps.workspace.primary, { action });
    const list: SqlInput[] = "inline" in inputs ? [inputs.inline] : inputs.files;
    const bytes = list.reduce((sum, input) => sum + new TextEncoder().encode(input.content).length, 0);
    const engine: BatchOptions = {
      backend,
      config,
      dialect,
      timeoutMs: deps.timeoutMs ?? scaledTimeoutMs(step, bytes, list.length, backend.kind),
      concurrency: deps.concurrency,
      tempDir: deps.tempDir,
      signal,
      env: definedEnv(deps.env),
      action,
      onProgress: (done, total) => progress(`${step}: ${done} of ${total} done`),
    };
    return { inputs, engine, label: runLabel(backend, config, dialect) };
  };

  return [
    defineTool({
      name: "sql_format",
      description:
        "Format SQL in the house style (lower case, leading commas; a workspace .sqruff/.sqlfluff " +
        "wins). Returns the SQL; write: true saves files.",
      input: { ...inputShape, write: z.boolean().optional() },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      run: async (args, { signal, progress }) => {
        const action = "Cannot format SQL";
        if (args.write && args.sql !== undefined) {
          throw new ToolError("invalid_argument", `${action}: write needs path or paths, not sql`);
        }
        const { inputs, engine, label } = await prepare(args, action, { step: "format", signal, progress });
        progress(`formatting with ${label}`);
        if ("inline" in inputs) {
          const [outcome] = await formatBatch([inputs.inline], engine);
          return renderFormatted([{ name: "", original: inputs.inline.content, outcome }], label);
        }
        const outcomes = await formatBatch(inputs.files, engine);
        const items: FormattedItem[] = inputs.files.map((file, i) => ({
          name: file.name,
          original: file.content,
          outcome: outcomes[i],
        }));
        if (!args.write) return renderFormatted(items, label);
        const written = [];
        // Two names of one file (hard links): written once, through the first; the second is not "changed
        // on disk meanwhile" but that same write.
        const firstName = new Map<string, string>();
        for (const [i, item] of items.entries()) {
          const { outcome, original } = item;
          const identity = inputs.files[i].identity;
          const sameAs = identity === null ? undefined : firstName.get(identity);
          if (sameAs !== undefined) {
            written.push({ ...item, written: false, sameAs });
            continue;
          }
          if (identity !== null) firstName.set(identity, item.name);
          const change = !outcome.parseErrors.length && outcome.formatted !== original;
          let failure: string | undefined;
          if (change) {
            // One file changed meanwhile must not hide what happened to the others.
            await saveFormatted(inputs.files[i].real, outcome.formatted, {
              expected: inputs.files[i].bytes,
              display: item.name,
              locks,
              roots: [...deps.workspace.roots, ...deps.workspace.allowDirs],
            })
              .catch((error) => {
                if (!(error instanceof ToolError)) throw error;
                failure = `${error.code}: ${error.message}`;
              });
          }
          written.push({ ...item, written: change && !failure, failure });
        }
        return renderWritten(written, label);
      },
    }),
    defineTool({
      name: "sql_lint",
      description:
        "Lint SQL: one `line:col code message` per violation, sorted, with counts. Parse errors show " +
        "as PRS.",
      input: {
        ...inputShape,
        rules: z.array(z.string()).optional().describe("Only these rules, e.g. CP01, LT04"),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      run: async (args, { signal, progress }) => {
        const action = "Cannot lint SQL";
        // Models often send one "CP01,LT04" string as the list.
        const rules = args.rules?.flatMap((rule) => rule.split(",")).map((rule) => rule.trim()).filter(
          Boolean,
        );
        const bad = rules?.find((rule) => !RULE.test(rule));
        if (bad !== undefined) {
          throw new ToolError(
            "invalid_argument",
            `${action}: "${bad}" is not a rule code or name, e.g. CP01`,
          );
        }
        const { inputs, engine, label } = await prepare(args, action, { step: "lint", signal, progress });
        const list = "inline" in inputs ? [inputs.inline] : inputs.files;
        progress(`linting ${list.length} input${list.length === 1 ? "" : "s"} with ${label}`);
        const found = await lintBatch(list, { ...engine, rules });
        return renderLint(list.map((input, i) => ({ name: input.name, ...found[i] })), label);
      },
    }),
  ];
}

function runLabel(backend: Backend, config: ChosenConfig, dialect?: string): RunLabel {
  const used = dialect ?? coreValue(config.text, "dialect") ?? DEFAULT_DIALECT;
  return `${backend.kind} ${backend.version}, config: ${config.label}, dialect ${used}`;
}
