/**
 * Runs code that must finish in a child `deno eval`, killed at a deadline: for inputs that made a
 * backtracking regular expression run for minutes. In the test's own process such code would block the
 * event loop, and no timer could stop it; the runner would hang. The deadline is a hang guard far above
 * the expected time (tens of milliseconds), not a speed check.
 * @module
 */

/** What became of the child: whether it finished before the deadline, succeeded, and what it printed. */
export interface Finished {
  finished: boolean;
  success: boolean;
  stdout: string;
}

/** Runs `code` (an ES module; import by absolute URL) in a child, killing it after `deadlineMs`. */
export async function evalFinishes(code: string, deadlineMs = 20_000): Promise<Finished> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", "--quiet", code],
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const stdout = new Response(child.stdout).text();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => timer = setTimeout(() => resolve("late"), deadlineMs));
  const outcome = await Promise.race([child.status, late]);
  clearTimeout(timer);
  if (outcome === "late") child.kill("SIGKILL");
  const status = await child.status;
  return { finished: outcome !== "late", success: status.success, stdout: await stdout };
}

/** The file URL of a module of this repository, for `import` in {@link evalFinishes} code. */
export function moduleUrl(relative: string): string {
  return new URL(`../../${relative}`, import.meta.url).href;
}
