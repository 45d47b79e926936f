/**
 * Which folders the tools work in, and the containment check every path goes through.
 * Precedence: `MCP_WORKSPACE` (a path list, first is primary) → the client's MCP roots → the cwd. A root
 * that is too broad (`/`, a drive, the home folder or above) is dropped from any of them (broad_roots.ts).
 * @module
 */
import { notCapableError, ToolError } from "../mcp/errors.ts";
import { platform, toSlashes } from "../platform/mod.ts";
import { showPath } from "./path_text.ts";
import { checkedPath } from "./path_argument.ts";
import { realResolve } from "./resolve.ts";
import { fromPathForm } from "./path_forms.ts";
import { isPathError, pathError, quotablePath } from "./path_error.ts";
import { noRootError, type RefusedRoot, rootPaths, screenRoots } from "./broad_roots.ts";
import { homeFolders } from "./homes.ts";
import { type Patience, waitAtMost } from "./patience.ts";

/** Where the workspace roots came from. */
export type RootSource = "env" | "roots" | "cwd";

/** The inputs a workspace is built from; `fromEnv` fills them from the process. */
export interface WorkspaceOptions {
  /** Value of `MCP_WORKSPACE`: a path list, first is primary. */
  workspaceEnv?: string;
  /** Value of `MCP_ALLOW_DIRS`: extra folders paths may point into. */
  allowDirsEnv?: string;
  cwd: string;
  /** Home folders (real paths): no root may be one or hold one. Default: `HOME` and `USERPROFILE`. */
  homes?: readonly string[];
}

/** The workspace roots of one server, possibly replaced later by the client's roots. */
export class Workspace {
  #roots: string[];
  /** The roots of the current source that were too broad: what the error names when none is left. */
  #refused: RefusedRoot[];
  #source: RootSource;
  #extra: string[];
  #cwd: string;
  #homes: readonly string[];
  #pending: Promise<void> = Promise.resolve();
  /** Counts the client's roots asked for: only the answer to the latest question is adopted. */
  #asked = 0;

  constructor(options: WorkspaceOptions) {
    this.#homes = options.homes ??
      homeFolders({ HOME: Deno.env.get("HOME"), USERPROFILE: Deno.env.get("USERPROFILE") });
    this.#cwd = canonical(options.cwd);
    const fromEnv = splitList(options.workspaceEnv).map((root) =>
      canonical(platform.path.resolve(this.#cwd, root))
    );
    // A refused MCP_WORKSPACE leaves no root rather than the cwd: the user named the workspace.
    const { kept, refused } = fromEnv.length
      ? screenRoots(fromEnv, this.#homes, "MCP_WORKSPACE")
      : this.#cwdRoots();
    this.#roots = kept;
    this.#refused = refused;
    this.#source = fromEnv.length ? "env" : "cwd";
    const allowed = splitList(options.allowDirsEnv).map((dir) =>
      canonical(platform.path.resolve(this.#cwd, dir))
    );
    this.#extra = screenRoots(allowed, this.#homes, "MCP_ALLOW_DIRS").kept;
  }

  /** A workspace from `MCP_WORKSPACE`, `MCP_ALLOW_DIRS` and the process cwd. */
  static fromEnv(): Workspace {
    return new Workspace({
      workspaceEnv: Deno.env.get("MCP_WORKSPACE"),
      allowDirsEnv: Deno.env.get("MCP_ALLOW_DIRS"),
      cwd: Deno.cwd(),
    });
  }

  /** The primary root: relative paths resolve against it. Throws `permission_denied` when none is usable. */
  get primary(): string {
    if (!this.#roots.length) throw noRootError("Cannot use the workspace", this.#refused);
    return this.#roots[0];
  }

  /** All usable workspace roots, primary first (empty when every root was too broad). */
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
   * With `patience`, resolutions wait at most that long and go on in the roots we had; an answer that
   * lands later is still adopted, unless the client was asked again since.
   */
  adoptClientRoots(fetchRoots: () => Promise<string[]>, patience?: Patience): Promise<void> {
    if (this.#source === "env") return Promise.resolve();
    const question = ++this.#asked;
    const fetched = fetchRoots().then((uris) => {
      if (question === this.#asked) this.#adopt(uris);
    }, () => {
      // A client that fails roots/list keeps the roots we had.
    });
    this.#pending = patience ? waitAtMost(fetched, patience) : fetched;
    return this.#pending;
  }

  #adopt(uris: string[]): void {
    const { paths, refused: unusable } = rootPaths(uris, "the client's roots");
    const roots = paths.map(canonical);
    // Roots the client declared but all refused leave none: the cwd is not what the client asked for.
    const { kept, refused } = uris.length
      ? screenRoots(roots, this.#homes, "the client's roots")
      : this.#cwdRoots();
    this.#roots = kept;
    this.#refused = [...unusable, ...refused];
    this.#source = uris.length ? "roots" : "cwd";
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
      if (error instanceof Deno.errors.NotCapable) {
        throw notCapableError(`Cannot use "${quotablePath(path)}"`);
      }
      // Other errors keep their OS type: each server words them (edit-mcp's io_error with the OS code).
      throw isPathError(error) ? pathError(error, `Cannot use "${quotablePath(path)}"`) : error;
    });
    if (!this.contains(real)) throw this.#outside(path);
    return real;
  }

  #outside(path: string): ToolError {
    return new ToolError(
      "outside_workspace",
      `Cannot use "${quotablePath(path)}": it resolves outside the workspace (${
        toSlashes(this.primary)
      }); use a path inside it`,
    );
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
    if (!this.#roots.length) throw noRootError(`Cannot use "${quotablePath(path)}"`, this.#refused);
    const plain = fromPathForm(path);
    const absolute = platform.path.resolve(this.primary, plain === "" ? "." : plain);
    // Windows sends the user's credentials to a share's host on first touch: judge such a path unopened.
    if (platform.isNetworkPath(absolute) && !this.contains(absolute)) throw this.#outside(path);
    return absolute;
  }

  #cwdRoots(): { kept: string[]; refused: RefusedRoot[] } {
    return screenRoots([this.#cwd], this.#homes, "the working directory");
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
