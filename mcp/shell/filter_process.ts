/**
 * The filter child process: reads `{source, flags, texts, maxLineChars}` as JSON on stdin and writes the
 * kept lines of each text as a JSON array. A regex cannot be interrupted inside one thread (not even a
 * terminated Worker stops it), so filters run here, where a kill truly ends them. No imports: `deno run`
 * starts it fast, and the compiled server runs it through `main.ts` with {@link FILTER_PROCESS_FLAG}.
 * @module
 */

/** The argument that turns the compiled server executable into a filter process. */
export const FILTER_PROCESS_FLAG = "--shell-mcp-filter";

/** What the server sends to a filter process. */
export interface FilterRequest {
  source: string;
  flags: string;
  texts: string[];
  /** Only this many characters of each line are tested (the whole line is kept). */
  maxLineChars: number;
}

/** Each text's lines that match `pattern`, each ending in a newline. */
export function keepMatchingLines(text: string, pattern: RegExp, maxLineChars: number): string {
  const kept: string[] = [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop(); // the text's final newline ends a line; it starts none
  for (const line of lines) {
    pattern.lastIndex = 0;
    if (pattern.test(line.length > maxLineChars ? line.slice(0, maxLineChars) : line)) kept.push(`${line}\n`);
  }
  return kept.join("");
}

/** Runs one filter request from stdin to stdout. */
export async function runFilterProcess(): Promise<void> {
  const request = JSON.parse(await new Response(Deno.stdin.readable).text()) as FilterRequest;
  const pattern = new RegExp(request.source, request.flags);
  const kept = request.texts.map((text) => keepMatchingLines(text, pattern, request.maxLineChars));
  await new Response(JSON.stringify(kept)).body!.pipeTo(Deno.stdout.writable);
}

if (import.meta.main) await runFilterProcess();
