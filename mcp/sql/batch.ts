/**
 * Formats and lints a batch in chunks, a few backend processes at once, under one deadline. What finished
 * comes back per input; an input whose chunk ran out of time, or that could not be read, comes back
 * marked `skipped` with the reason instead of failing the whole call.
 * @module
 */
import { ToolError } from "../../lib/mcp/errors.ts";
import { formatSize } from "../../lib/text/format.ts";
import { CHUNK_LIMITS, type ChunkLimits, defaultConcurrency, planChunks, runPool } from "./chunks.ts";
import { type EngineOptions, formatInputs, type FormatOutcome, lintInputs, type SqlInput } from "./engine.ts";
import type { Violation } from "./parse.ts";

/** How a batch runs, beyond one engine run. */
export interface BatchOptions extends EngineOptions {
  /** What failed, for errors: `Cannot lint SQL`. */
  action: string;
  /** Backend processes at once; default: the core count. */
  concurrency?: number;
  /** How big chunks get; default: the backend's {@link CHUNK_LIMITS}. */
  chunkLimits?: ChunkLimits;
  /** Ends the batch as its timeout would (the caller's own deadline). */
  stop?: AbortSignal;
  /** Called after each chunk with the inputs done so far. */
  onProgress?: (done: number, total: number) => void;
}

/** The lint result of one input. */
export interface LintOutcome {
  violations: Violation[];
  /** Set when the input was not linted: why. */
  skipped?: string;
}

/** Lints every input; violations per input, or why it was skipped. */
export async function lintBatch(
  inputs: readonly SqlInput[],
  options: BatchOptions & { rules?: readonly string[] },
): Promise<LintOutcome[]> {
  const results = await inChunks(
    inputs,
    options,
    (chunk, signal) => lintInputs(chunk, { ...options, signal }),
  );
  return results.map((result, i) =>
    typeof result === "string"
      ? { violations: [], skipped: result }
      : { violations: inputs[i].name ? result : withoutFileOnlyRules(result) }
  );
}

/** Formats every input; the outcome per input, `skipped` (with the input unchanged) when not formatted. */
export async function formatBatch(
  inputs: readonly SqlInput[],
  options: BatchOptions,
): Promise<FormatOutcome[]> {
  const results = await inChunks(
    inputs,
    options,
    (chunk, signal) => formatInputs(chunk, { ...options, signal }),
  );
  return results.map((result, i) => {
    if (typeof result === "string") {
      return { formatted: inputs[i].content, parseErrors: [], remaining: [], skipped: result };
    }
    return inputs[i].name ? result : { ...result, remaining: withoutFileOnlyRules(result.remaining) };
  });
}

/**
 * Inline SQL is staged as a file only for the backend: "file must end with a newline" (sqlfluff 1.x
 * L009, later LT12) is about files, and the formatted text shown ends with one anyway.
 */
function withoutFileOnlyRules(violations: Violation[]): Violation[] {
  return violations.filter((v) => v.code !== "L009" && v.code !== "LT12");
}

/** Runs `step` per chunk; per input its result, or the reason it was skipped. */
async function inChunks<T>(
  inputs: readonly SqlInput[],
  options: BatchOptions,
  step: (chunk: SqlInput[], signal: AbortSignal) => Promise<T[]>,
): Promise<(T | string)[]> {
  const results: (T | string)[] = inputs.map((input) => input.skipped ?? "");
  const todo = inputs.flatMap((input, i) => (input.skipped === undefined ? [i] : []));
  const concurrency = options.concurrency ?? defaultConcurrency();
  const sizes = todo.map((i) => new TextEncoder().encode(inputs[i].content).length);
  const chunks = planChunks(sizes, concurrency, options.chunkLimits ?? CHUNK_LIMITS[options.backend.kind])
    .map((chunk) => chunk.map((j) => todo[j]));
  const deadline = new AbortController();
  const failed = new AbortController(); // the first real error stops the other chunks
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
  const onStop = () => deadline.abort();
  options.stop?.addEventListener("abort", onStop, { once: true });
  if (options.stop?.aborted) onStop();
  const signals = [deadline.signal, failed.signal, ...(options.signal ? [options.signal] : [])];
  const signal = AbortSignal.any(signals);
  const unfinished = unfinishedReason(options.timeoutMs);
  let failure: unknown;
  let done = 0;
  try {
    await runPool(chunks.length, concurrency, async (c) => {
      const chunk = chunks[c];
      try {
        if (signal.aborted) throw new ToolError("timeout", `${options.action}: stopped before it started`);
        const chunkResults = await step(chunk.map((i) => inputs[i]), signal);
        chunk.forEach((i, k) => results[i] = chunkResults[k]);
      } catch (error) {
        const timedOut = error instanceof ToolError && error.code === "timeout" && !options.signal?.aborted;
        if (!timedOut || failed.signal.aborted) {
          failure ??= error;
          failed.abort();
          return;
        }
        chunk.forEach((i) => results[i] = unfinished);
      }
      done += chunk.length;
      options.onProgress?.(done, todo.length);
    });
  } finally {
    clearTimeout(timer);
    options.stop?.removeEventListener("abort", onStop);
  }
  if (options.signal?.aborted) throw new ToolError("timeout", `${options.action}: cancelled`);
  if (failure !== undefined) throw failure;
  if (todo.length && todo.every((i) => results[i] === unfinished)) {
    throw nothingFinished(inputs, todo, options);
  }
  return results;
}

/** The timeout error when no input finished, with the hint that fits: split the SQL, or pass fewer files. */
function nothingFinished(inputs: readonly SqlInput[], todo: number[], options: BatchOptions): ToolError {
  const bytes = todo.reduce((sum, i) => sum + new TextEncoder().encode(inputs[i].content).length, 0);
  const within = `within ${seconds(options.timeoutMs)} s`;
  const what = todo.length === 1
    ? `${options.backend.kind} did not finish ${
      inputs[todo[0]].name ? `"${inputs[todo[0]].name}"` : "the SQL"
    } (${formatSize(bytes)}) ${within} and was stopped`
    : `none of the ${todo.length} files (${
      formatSize(bytes)
    }) finished ${within} and the backend was stopped`;
  const speed = options.backend.kind === "sqlfluff"
    ? "sqlfluff needs about 2 s per KB to lint, 5 s to format; "
    : "";
  const smaller = todo.length === 1 ? "split the SQL into smaller pieces" : "pass fewer files";
  return new ToolError(
    "timeout",
    `${options.action}: ${what}; ${speed}${smaller} or set SQL_MCP_TIMEOUT_MS (milliseconds)`,
  );
}

/** The `skipped` reason of an input whose chunk ran out of time. */
export function unfinishedReason(timeoutMs: number): string {
  return `not finished within ${seconds(timeoutMs)} s (timeout)`;
}

/** Whether a `skipped` reason means the input ran out of time (it may pass in a smaller batch). */
export function isUnfinished(reason: string): boolean {
  return reason.startsWith("not finished within ");
}

function seconds(ms: number): string {
  return String(Number((ms / 1000).toPrecision(3)));
}
