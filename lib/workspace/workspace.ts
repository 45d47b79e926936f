/**
 * Which folders the tools work in, and the containment check every path goes through.
 * Precedence: `MCP_WORKSPACE` (a path list, first is primary) → the client's MCP roots → the cwd.
 * @module
 */
import { ToolError } from "../mcp/errors.ts";
import { platform, toSlashes } from "../platform/mod.ts";
import { hasRawBytes, pathFromArgument, showPath } from "./path_text.ts";
import { realResolve } from "./resolve.ts";
import { fromPathForm } from "./path_forms.ts";
import { isPathError, pathError, quotablePath } from "./path_error.ts";

/** Where the workspace roots came from. */
export type RootSource = "env" | "roots" | "cwd";

/** The inputs a workspace is built from; `fromEnv` fills them from the process. */
export interface WorkspaceOptions {
  /** Value of `MCP_WORKSPACE`: a path list, first is primary. */
  workspaceEnv?: string;
  /** Value of `MCP_ALLOW_DIRS`: extra folders paths may point into. */
  allowDirsEnv?: string;
  cwd: string;
}

/** The workspace roots of one server, possibly replaced later by the client's roots. */
export class Workspace {
  #roots: string[];
  #source: RootSource;
  #extra: string[];
  #cwd: string;
  #pending: Promise<void> = Promise.resolve();

  constructor(options: WorkspaceOptions) {
    this.#cwd = canonical(options.cwd);
    const fromEnv = splitList(options.workspaceEnv).map((root) =>
      canonical(platform.path.resolve(this.#cwd, root))
    );
    this.#roots = fromEnv.length ? fromEnv : [this.#cwd];
    this.#source = fromEnv.length ? "env" : "cwd";
    this.#extra = splitList(options.allowDirsEnv).map((dir) =>
      canonical(platform.path.resolve(this.#cwd, dir))
    );
  }

  /** A workspace from `MCP_WORKSPACE`, `MCP_ALLOW_DIRS` and the process cwd. */
  static fromEnv(): Workspace {
    return new Workspace({
      workspaceEnv: Deno.env.get("MCP_WORKSPACE"),
      allowDirsEnv: Deno.env.get("MCP_ALLOW_DIRS"),
      cwd: Deno.cwd(),
    });
  }

  /** The primary root: relative paths resolve against it. */
  get primary(): string {
    return this.#roots[0];
  }

  /** All workspace roots, primary first. */
  get roots(): readonly string[] {
    return this.#roots;
  }

  /** Extra allowed folders from `MCP_ALLOW_DIRS`. */
  get allowDirs(): readonly string[] {
    return this.#extra;
  }

  /** Where the roots came from. */
  get source(): RootSource {
    return this.#source;
  }

  /**
   * Adopts the client's roots (file URIs), unless `MCP_WORKSPACE` set them; `fetchRoots` runs now and
   * every path resolution waits for it, so no tool sees the cwd while the client's roots are on their way.
   */
  adoptClientRoots(fetchRoots: () => Promise<string[]>): Promise<void> {
    if (this.#source === "env") return Promise.resolve();
    this.#pending = fetchRoots().then((uris) => {
      const roots = uris.flatMap((uri) => {
        try {
          return [canonical(platform.fileUrlToPath(uri))];
        } catch {
          return [];
        }
      });
      this.#roots = roots.length ? roots : [this.#cwd];
      this.#source = roots.length ? "roots" : "cwd";
    }, () => {
      // A client that fails roots/list keeps the roots we had.
    });
    return this.#pending;
  }

  /** Waits for client roots being fetched, if any. */
  ready(): Promise<void> {
    return this.#pending;
  }

  /**
   * The real absolute path of `path` (relative to the primary root), only if it stays inside a root or
   * an allowed folder after resolving `..` and symlinks; a path that does not exist yet is judged by its
   * nearest existing parent.
   */
  async resolveInside(shown: string): Promise<string> {
    const path = checkedPath(shown);
    await this.#pending;
    const absolute = this.#absolute(path);
    const real = await realResolve(absolute).catch((error) => {
      // A folder on the way without search (x) permission: say which path, not "internal".
      if (error instanceof Deno.errors.PermissionDenied) {
        throw new ToolError(
          "permission_denied",
          `Cannot use "${
            quotablePath(path)
          }": permission denied on a folder of its path; ask for a path you can read`,
        );
      }
      // Other errors keep their OS type: each server words them (edit-mcp's io_error with the OS code).
      throw isPathError(error) ? pathError(error, `Cannot use "${quotablePath(path)}"`) : error;
    });
    if (!this.contains(real)) {
      throw new ToolError(
        "outside_workspace",
        `Cannot use "${quotablePath(path)}": it resolves outside the workspace (${
          toSlashes(this.primary)
        }); use a path inside it`,
      );
    }
    return real;
  }

  /**
   * The absolute path `resolveInside` starts from (the same checks, no I/O, nothing resolved yet):
   * what a caller may `stat` while `resolveInside` runs, to use only once it returned. Call after
   * {@link ready}: the primary root may still change before.
   */
  absolute(shown: string): string {
    return this.#absolute(checkedPath(shown));
  }

  #absolute(path: string): string {
    const plain = fromPathForm(path);
    return platform.path.resolve(this.primary, plain === "" ? "." : plain);
  }

  /** Whether a real absolute path lies in a root or an allowed folder. */
  contains(real: string): boolean {
    return [...this.#roots, ...this.#extra].some((root) => platform.isInside(real, root));
  }

  /**
   * How a path is shown to the model: relative to the primary root with `/`, else absolute; quoted and
   * escaped when it holds a control character (see path_text.ts).
   */
  display(real: string): string {
    return showPath(this.relative(real));
  }

  /** `real` relative to the primary root with `/` (else absolute), unescaped: for ripgrep's arguments. */
  relative(real: string): string {
    if (!platform.isInside(real, this.primary)) return toSlashes(real);
    return toSlashes(platform.path.relative(this.primary, real)) || ".";
  }
}

/** The path a tool argument names, refused when no file can have that name. */
function checkedPath(shown: string): string {
  // The one place a quoted, escaped name (`"a\nb.txt"`, as tools show odd names) is turned back into one.
  const path = pathFromArgument(shown);
  if (hasRawBytes(path)) {
    throw new ToolError(
      "invalid_argument",
      `Cannot use ${shown}: its name is not valid UTF-8, which this server cannot open; rename it (e.g. in a shell)`,
    );
  }
  if (path.includes("\0")) {
    throw new ToolError(
      "invalid_argument",
      `Cannot use path ${JSON.stringify(path)}: it contains a NUL byte`,
    );
  }
  if (platform.isDevicePath(path)) {
    throw new ToolError("invalid_argument", `Cannot use "${path}": it names a device, not a file`);
  }
  return path;
}

function splitList(value: string | undefined): string[] {
  return (value ?? "").split(platform.listSeparator).map((part) => part.trim()).filter(Boolean);
}

function canonical(path: string): string {
  try {
    return platform.normalizeReal(Deno.realPathSync(path));
  } catch {
    return platform.path.resolve(path);
  }
}
