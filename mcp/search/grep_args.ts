/** search_grep's ripgrep argv, and the ignore rules it walks with. */
import { globFilter } from "../../lib/ripgrep/glob_filter.ts";
import { ignoreRuleArgs, type IgnoreRules } from "../../lib/ripgrep/ignore_rules.ts";
import { COUNT_ARGS } from "../../lib/ripgrep/counts.ts";
import type { GrepRequest } from "./grep.ts";

/** The ripgrep argv for `request`; `sorted` trades parallelism for a stable order. */
export function grepArgs(request: GrepRequest, sorted: boolean): string[] {
  // count: ripgrep counts matching lines itself (`--count`), not a JSON record per match for us to parse.
  const args = request.mode === "count" ? [...COUNT_ARGS] : ["--json"];
  // No --no-messages: stderr names the folders it could not read (see messages.ts). No --binary: ripgrep's
  // default drops a file at its first NUL byte, where --binary would read a 100 GB disk image to its end
  // looking for a match; a file named as a path is still searched whole (ripgrep's rule for explicit files).
  args.push("--no-config", "--path-separator", "/");
  args.push(
    { smart: "--smart-case", sensitive: "--case-sensitive", insensitive: "--ignore-case" }[
      request.case ?? "smart"
    ],
  );
  if (request.fixed) args.push("--fixed-strings");
  if (request.word) args.push("--word-regexp");
  if (request.multiline) args.push("--multiline");
  if (request.pcre2) args.push("--pcre2");
  if (request.context && (request.mode ?? "lines") === "lines") {
    args.push("--context", String(request.context));
  }
  if (request.mode === "files") args.push("--max-count", "1");
  args.push(...ignoreRuleArgs(grepIgnoreRules(request)));
  for (const type of request.types ?? []) args.push("--type", type);
  // `--sort path` runs on one thread already.
  if (sorted) args.push("--sort", "path");
  else if (request.smallTree) args.push("--threads", "1");
  args.push("--regexp", request.pattern, "--", ...request.paths);
  return args;
}

/** The ignore rules of a request; its positive globs are applied to result paths (`keepListed`). */
export function grepIgnoreRules(request: GrepRequest): IgnoreRules {
  return {
    hidden: request.hidden,
    noIgnore: request.noIgnore,
    inGitRepo: request.inGitRepo ?? false,
    trustedParents: request.trustedParents,
    globs: request.globs?.length ? globFilter(request.globs) : undefined,
    types: (request.types?.length ?? 0) > 0,
    above: request.above,
  };
}
