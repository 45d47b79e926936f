/** ripgrep's complaints as ToolErrors: a bad regex, glob or type, and files it gave up on. */
import { ToolError } from "../../lib/mcp/errors.ts";
import { byReason, type FailedPath, named } from "../../lib/ripgrep/messages.ts";
import { formatCount } from "../../lib/text/format.ts";

/** ripgrep's own words for a bad regex, glob or type, as an invalid_argument error. */
export function ripgrepError(pattern: string, stderr: string): ToolError {
  let reason = stderr.replace(/^rg: /gm, "").trim() || "ripgrep failed without a message";
  // "error building NFA": a pattern or glob too large for ripgrep's automata.
  if (/NFA|size limit/.test(reason)) reason += "; the pattern or a glob is too large, shorten it";
  if (/regex|glob|file type|PCRE2|look-?around|backreference|NFA|size limit/i.test(reason)) {
    // ripgrep suggests its own flags; the model's switches are the tool's arguments.
    reason = reason
      .replace(/\s*Consider enabling PCRE2[\s\S]*$/, "\nSet pcre2: true for look-around and backreferences")
      .replace(/\s*Consider enabling multiline mode[\s\S]*$/, "\nSet multiline: true to match across lines");
    return new ToolError("invalid_argument", `Cannot search for /${pattern}/: ${reason}`);
  }
  return new ToolError("internal", `Cannot search for /${pattern}/: ${reason}`);
}

/**
 * The files ripgrep gave up on, when nothing else came back: an answer of "No matches" would be false.
 * PCRE2's match limit is the pattern's doing (nested repeats backtrack), so it is an invalid_argument.
 */
export function failedError(pattern: string, failed: FailedPath[], searched: number | null): ToolError {
  const [reason, paths] = byReason(failed)[0];
  const others = searched ? ` (no match in the ${formatCount(searched)} other files searched)` : "";
  const where = `Cannot search for /${pattern}/ in ${named(paths)}: ${reason}${others}`;
  if (reason.startsWith("PCRE2")) {
    return new ToolError("invalid_argument", `${where}; simplify the pattern (nested repeats backtrack)`);
  }
  return new ToolError("internal", where);
}
