/**
 * Waits for the machine to settle before a timing: right after a heavy area (the search corpus, 200 MB of
 * shell output) or beside another job, every timing includes waits for a core. Benches then report the load
 * they measured at, whether or not it came down.
 * @module
 */

/** The 1-minute load average, or null where the OS does not publish it (`/proc/loadavg`). */
export async function loadAverage(): Promise<number | null> {
  const text = await Deno.readTextFile("/proc/loadavg").catch(() => "");
  const load = Number.parseFloat(text.split(" ")[0]);
  return Number.isFinite(load) ? load : null;
}

/** What {@link settle} saw. */
export interface Settled {
  /** The 1-minute load average when it returned (null: not published). */
  load: number | null;
  /** Whether the load went below the bound before the deadline. */
  quiet: boolean;
  waitedMs: number;
}

const POLL_MS = 1_000;

/** Waits until the 1-minute load average is below `below`, or `deadlineMs` passed. */
export async function settle(options: { below?: number; deadlineMs?: number } = {}): Promise<Settled> {
  const below = options.below ?? 1;
  const deadline = options.deadlineMs ?? 120_000;
  const started = performance.now();
  for (;;) {
    const load = await loadAverage();
    const waitedMs = performance.now() - started;
    if (load === null || load < below) return { load, quiet: true, waitedMs };
    if (waitedMs >= deadline) return { load, quiet: false, waitedMs };
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** `1-min load average 0.42 on 2 cores when measured, below 1 after waiting 31 s`, for a row's note. */
export function describeLoad(settled: Settled): string {
  const load = settled.load === null ? "unknown" : settled.load.toFixed(2);
  const waited = `${(settled.waitedMs / 1000).toFixed(0)} s`;
  const how = settled.quiet
    ? settled.waitedMs >= POLL_MS ? `, below 1 after waiting ${waited}` : ""
    : `, still ≥ 1 after waiting ${waited}, so medians include time waiting for a core`;
  return `1-min load average ${load} on ${navigator.hardwareConcurrency} cores when measured${how}`;
}

/** A reading of the machine's CPU time counters (`/proc/stat`), or null where the OS has none. */
export async function cpuTimes(): Promise<{ busy: number; total: number } | null> {
  const line = (await Deno.readTextFile("/proc/stat").catch(() => "")).split("\n")[0];
  if (!line.startsWith("cpu ")) return null;
  const fields = line.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  // idle and iowait are the time no one wanted a core.
  return { busy: total - fields[3] - (fields[4] ?? 0), total };
}

/** `CPU busy 64 % of the time` between two readings (the bench, the servers and anything else), or "". */
export function describeBusy(
  before: { busy: number; total: number } | null,
  after: { busy: number; total: number } | null,
): string {
  if (!before || !after || after.total <= before.total) return "";
  const share = (after.busy - before.busy) / (after.total - before.total);
  return `all cores ${
    Math.round(share * 100)
  } % busy during the calls (both servers and the client included)`;
}
