/** The edit server's failure kinds (the spec's names) and how they map onto the toolkit's closed codes. */
import { type ErrorCode, ToolError } from "../../lib/mcp/errors.ts";

/** A failure kind from the edit spec; it travels in `_meta.kind` next to the toolkit-wide code. */
export type EditErrorKind =
  | "invalid_request"
  | "outside_workspace"
  | "not_found"
  | "is_directory"
  | "permission_denied"
  | "io_error"
  | "too_large"
  | "file_exists"
  | "stale"
  | "binary"
  | "unsupported_encoding"
  | "encoding_conflict"
  | "no_match"
  | "ambiguous"
  | "count_mismatch"
  | "overlapping"
  | "no_change";

const CODES: Record<EditErrorKind, ErrorCode> = {
  "invalid_request": "invalid_argument",
  "outside_workspace": "outside_workspace",
  "not_found": "not_found",
  "is_directory": "invalid_argument",
  "permission_denied": "permission_denied",
  "io_error": "internal",
  "too_large": "too_large",
  "file_exists": "already_exists",
  stale: "conflict",
  binary: "invalid_argument",
  "unsupported_encoding": "invalid_argument",
  "encoding_conflict": "invalid_argument",
  "no_match": "not_found",
  ambiguous: "invalid_argument",
  "count_mismatch": "conflict",
  overlapping: "invalid_argument",
  "no_change": "invalid_argument",
};

/** A ToolError carrying the spec's kind. */
export function editError(kind: EditErrorKind, message: string): ToolError {
  return new ToolError(CODES[kind], message, { meta: { kind } });
}

/** The spec kind of an error thrown by the edit server, if it has one. */
export function kindOf(error: unknown): EditErrorKind | undefined {
  return error instanceof ToolError ? error.meta?.kind as EditErrorKind | undefined : undefined;
}

const KINDS: Partial<Record<ErrorCode, EditErrorKind>> = {
  "invalid_argument": "invalid_request",
  "not_found": "not_found",
  "permission_denied": "permission_denied",
  "conflict": "stale",
  "too_large": "too_large",
};

/** A ToolError from shared code (lib/) given the spec kind its code stands for; io_error when none fits. */
export function withKind(error: ToolError): ToolError {
  if (kindOf(error) || error.code === "timeout" || error.code === "outside_workspace") return error;
  const kind = KINDS[error.code] ?? "io_error";
  return new ToolError(error.code, error.message, { meta: { ...error.meta, kind }, cause: error });
}
