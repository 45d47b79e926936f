/** Line filtering with a hard time budget: the regex runs in a child process that is killed when too slow. */
import { ToolError } from "../../lib/mcp/errors.ts";
import { capQuote } from "../../lib/text/cap.ts";
import { FILTER_PROCESS_FLAG, type FilterRequest } from "./filter_process.ts";

/** Characters of each line a filter tests: a bound on the work per line, whatever the log holds. */
export const FILTER_LINE_CHARS = 4096;

/** Default time a filter may take, process start included. */
export const FILTER_TIMEOUT_MS = 5000;

/**
 * The lines of each text that match `pattern` (each ending in a newline). Throws `timeout` when the
 * pattern takes longer than `timeoutMs` (catastrophic backtracking); the server never waits on it longer.
 */
export async function filterTexts(
  texts: string[],
  pattern: RegExp,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<string[]> {
  const timeoutMs = options.timeoutMs ?? FILTER_TIMEOUT_MS;
  const { program, args } = filterCommand();
  const child = new Deno.Command(program, {
    args,
    env: { DENO_NO_UPDATE_CHECK: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const request: FilterRequest = {
    source: pattern.source,
    flags: pattern.flags,
    texts,
    maxLineChars: FILTER_LINE_CHARS,
  };
  const feeding = new Response(JSON.stringify(request)).body!.pipeTo(child.stdin).catch(() => {});
  const output = child.output();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<"stop">((resolve) => {
    onAbort = () => resolve("stop");
    timer = setTimeout(onAbort, timeoutMs);
    options.signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    const result = await Promise.race([output, stop]);
    if (result === "stop") {
      child.kill("SIGKILL");
      await output.catch(() => {});
      const seconds = Math.round(timeoutMs / 100) / 10;
      throw new ToolError(
        "timeout",
        `Cannot filter with "${capQuote(pattern.source)}": the pattern took over ${seconds}s (catastrophic ` +
          "backtracking); use a simpler one without nested or overlapping repeats, e.g. a plain word",
      );
    }
    if (!result.success) {
      const reason = new TextDecoder().decode(result.stderr).trim().split("\n").at(-1);
      throw new ToolError(
        "internal",
        `Cannot filter with "${capQuote(pattern.source)}": the filter process failed: ${
          capQuote(reason ?? "")
        }`,
      );
    }
    return JSON.parse(new TextDecoder().decode(result.stdout)) as string[];
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort!);
    await feeding;
  }
}

/** `deno run` of the filter module, or the compiled server itself with the filter flag. */
function filterCommand(): { program: string; args: string[] } {
  const program = Deno.execPath();
  if (Deno.build.standalone) return { program, args: [FILTER_PROCESS_FLAG] };
  const module = new URL("./filter_process.ts", import.meta.url).href;
  return { program, args: ["run", "--quiet", "--no-prompt", "--no-config", module] };
}
