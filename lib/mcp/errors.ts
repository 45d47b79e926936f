/** The closed set of error codes a tool may return; clients and tests match on these. */
export const ERROR_CODES = [
  "invalid_argument",
  "not_found",
  "already_exists",
  "outside_workspace",
  "permission_denied",
  "timeout",
  "too_large",
  "conflict",
  "unavailable",
  "internal",
] as const;

/** One of {@link ERROR_CODES}. */
export type ErrorCode = typeof ERROR_CODES[number];

/** An expected failure of a tool: rendered as an `isError` result whose text starts with the code. */
export class ToolError extends Error {
  override readonly name = "ToolError";
  /** Extra machine-readable fields merged into the result's `_meta` (e.g. a server-specific `kind`). */
  readonly meta?: Record<string, unknown>;
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: ErrorOptions & { meta?: Record<string, unknown> },
  ) {
    super(message, options);
    this.meta = options?.meta;
  }
}

/** Why Deno refuses a path (`NotCapable`): the system folders it keeps from any server without --allow-all. */
export const NOT_CAPABLE_REASON =
  "is a system path (under /proc, /dev or /sys) that this server may not open";

/** The error for a path Deno refuses (`NotCapable`): `action` is `Cannot read "x"`. */
export function notCapableError(action: string): ToolError {
  return new ToolError("permission_denied", `${action}: it ${NOT_CAPABLE_REASON}`);
}

/** Maps a Deno filesystem or process error onto a ToolError with the failed action first. */
export function toToolError(error: unknown, action: string): ToolError {
  if (error instanceof ToolError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  if (error instanceof Deno.errors.NotFound) {
    return new ToolError("not_found", `${action}: no such file or folder`);
  }
  if (error instanceof Deno.errors.PermissionDenied) {
    return new ToolError("permission_denied", `${action}: permission denied`);
  }
  if (error instanceof Deno.errors.NotCapable) return notCapableError(action);
  if (error instanceof Deno.errors.AlreadyExists) {
    return new ToolError("already_exists", `${action}: already exists`);
  }
  if (error instanceof Deno.errors.IsADirectory) {
    return new ToolError("invalid_argument", `${action}: it is a folder`);
  }
  if (error instanceof Deno.errors.NotADirectory) {
    return new ToolError("invalid_argument", `${action}: a part of the path is not a folder`);
  }
  return new ToolError("internal", `${action}: ${reason}`);
}
