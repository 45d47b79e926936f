/** The search server's tool table: search_grep and search_glob over ripgrep. */
import { z } from "zod";
import { defineTool, type ToolDefinition } from "../../lib/mcp/tool.ts";
import { ToolError } from "../../lib/mcp/errors.ts";
import { pathError, quotablePath } from "../../lib/workspace/path_error.ts";
import type { Ripgrep } from "../../lib/ripgrep/locate.ts";
import type { Workspace } from "../../lib/workspace/workspace.ts";
import { platform } from "../../lib/platform/mod.ts";
import { grep } from "./grep.ts";
import { glob } from "./glob.ts";
import { type IgnoreScope, ignoreScope, ignoreScopeOf } from "../../lib/ripgrep/ignore_rules.ts";
import { isSmallTree } from "../../lib/ripgrep/small_tree.ts";
import { renderGrep } from "./render.ts";

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** What the tools need: the workspace, a ripgrep, and the hard timeout of one search. */
export interface SearchDeps {
  workspace: Workspace;
  ripgrep: () => Promise<Ripgrep>;
  timeoutMs: number;
}

const globs = z.union([z.string(), z.array(z.string())]);

/** The tools, closed over their dependencies. */
export function createTools(deps: SearchDeps): ToolDefinition[] {
  return [
    defineTool({
      name: "search_grep",
      description:
        "Search file contents with ripgrep (Rust regex), gitignore-aware. Output: path heading, line:text. mode files/count for less. Page with offset",
      input: {
        pattern: z.string(),
        path: z.string().optional(),
        glob: globs.optional().describe("*.ts, !dist/**"),
        type: z.string().optional().describe("rg type: ts, py"),
        case: z.enum(["smart", "sensitive", "insensitive"]).optional(),
        fixed: z.boolean().optional().describe("Literal"),
        word: z.boolean().optional(),
        multiline: z.boolean().optional(),
        pcre2: z.boolean().optional().describe("Look-around, backrefs"),
        context: z.number().min(0).max(20).optional(),
        mode: z.enum(["lines", "files", "count"]).optional(),
        limit: z.number().min(1).max(500).optional(),
        offset: z.number().min(0).optional(),
        hidden: z.boolean().optional(),
        no_ignore: z.boolean().optional(),
      },
      annotations: READ_ONLY,
      run: async (input, { signal }) => {
        refuseNul("search_grep", [input.pattern, ...toList(input.glob), input.type ?? ""]);
        const { paths, where, inGitRepo, trustedParents, above, smallTree } = await targets(
          deps.workspace,
          input.path,
          {
            sizeUp: true,
          },
        );
        const mode = input.mode ?? "lines";
        const offset = Math.floor(input.offset ?? 0);
        const context = Math.floor(input.context ?? 0);
        const outcome = await grep(await deps.ripgrep(), {
          pattern: input.pattern,
          paths,
          globs: toList(input.glob),
          types: input.type?.split(",").map((t) => t.trim()).filter(Boolean),
          case: input.case,
          fixed: input.fixed,
          word: input.word,
          multiline: input.multiline,
          pcre2: input.pcre2,
          context,
          mode,
          limit: Math.floor(input.limit ?? (mode === "lines" ? 100 : 200)),
          offset,
          hidden: input.hidden,
          noIgnore: input.no_ignore,
          inGitRepo,
          trustedParents,
          above,
          smallTree,
        }, { cwd: deps.workspace.primary, timeoutMs: deps.timeoutMs, signal });
        return renderGrep(outcome, {
          pattern: input.pattern,
          where,
          mode,
          offset,
          context,
          multiline: input.multiline,
          timeoutMs: deps.timeoutMs,
        });
      },
    }),
    defineTool({
      name: "search_glob",
      description:
        "Find files by glob (**/*.ts; ! negates) via rg --files, gitignore-aware, newest first. Page with offset",
      input: {
        pattern: globs,
        path: z.string().optional(),
        sort: z.enum(["mtime", "path"]).optional(),
        limit: z.number().min(1).max(1000).optional(),
        offset: z.number().min(0).optional(),
        hidden: z.boolean().optional(),
        no_ignore: z.boolean().optional(),
      },
      annotations: READ_ONLY,
      run: async (input, { signal }) => {
        refuseNul("search_glob", toList(input.pattern));
        const { paths, where, inGitRepo, trustedParents, above } = await targets(deps.workspace, input.path);
        return await glob(await deps.ripgrep(), {
          patterns: toList(input.pattern),
          paths,
          where,
          limit: Math.floor(input.limit ?? 200),
          offset: Math.floor(input.offset ?? 0),
          sort: input.sort,
          hidden: input.hidden,
          noIgnore: input.no_ignore,
          inGitRepo,
          trustedParents,
          above,
        }, { cwd: deps.workspace.primary, timeoutMs: deps.timeoutMs, signal });
      },
    }),
  ];
}

/** A NUL byte cannot be passed to a process: say so rather than fail to spawn ripgrep. */
function refuseNul(tool: string, values: string[]): void {
  const bad = values.find((value) => value.includes("\0"));
  if (bad !== undefined) {
    throw new ToolError(
      "invalid_argument",
      `Cannot call ${tool} with ${JSON.stringify(bad)}: it contains a NUL byte`,
    );
  }
}

function toList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).filter((v) => v !== "");
}

/**
 * What to search, as ripgrep and the model see it: the given path (once it is known to be inside), or by
 * default every workspace root, primary first (relative), the others absolute; a root inside another is
 * searched once. Its ignore scope (`ignoreScope`) decides the ignore rules: whether it lies in a git
 * repository, whether ripgrep may read the ignore files above it, and those it does not read (`above`).
 * With `sizeUp`, `smallTree` tells whether the target is a file or a small tree (`isSmallTree`).
 */
async function targets(
  workspace: Workspace,
  path: string | undefined,
  options: { sizeUp?: boolean } = {},
): Promise<{ paths: string[]; where: string; smallTree: boolean } & IgnoreScope> {
  const sizeUp = (folders: string[]) => options.sizeUp ? isSmallTree(folders) : Promise.resolve(false);
  if (path === undefined) {
    await workspace.ready();
    const roots = workspace.roots.filter((root, i) =>
      !workspace.roots.some((other, j) => j < i && platform.isInside(root, other))
    );
    const paths = roots.map((root) => workspace.relative(root));
    const where = roots.map((root) => workspace.display(root)).join(", ");
    const tops = [...workspace.roots, ...workspace.allowDirs];
    const [scope, smallTree] = await Promise.all([
      ignoreScopeOf(roots, { tops, cwd: workspace.primary }),
      sizeUp(roots),
    ]);
    return { paths, where, smallTree, ...scope };
  }
  // The stat runs alongside the real-path lookup, on the path as given (see fs-mcp's resolveExisting).
  await workspace.ready();
  const stat = Deno.stat(workspace.absolute(path)).then(
    (info) => ({ info }),
    (error: unknown) => ({ error }),
  );
  const real = await workspace.resolveInside(path);
  const stated = await stat;
  if ("error" in stated) throw pathError(stated.error, `Cannot search "${quotablePath(path)}"`);
  const info = stated.info;
  // ripgrep would block on a FIFO until the timeout: refuse pipes, sockets and devices up front.
  if (!info.isFile && !info.isDirectory) {
    throw new ToolError("invalid_argument", `Cannot search "${path}": not a regular file or folder`);
  }
  // A file named as path is searched whatever the ignore rules say; a folder's walk needs its scope.
  const tops = [...workspace.roots, ...workspace.allowDirs];
  const [scope, smallTree] = await Promise.all([
    info.isFile
      ? ignoreScope(platform.path.dirname(real), { tops, cwd: workspace.primary })
      : ignoreScope(real, { tops, cwd: workspace.primary }),
    info.isFile ? Promise.resolve(Boolean(options.sizeUp)) : sizeUp([real]),
  ]);
  return { paths: [workspace.relative(real)], where: workspace.display(real), smallTree, ...scope };
}
