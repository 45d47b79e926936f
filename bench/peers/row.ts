/**
 * One measured comparison of the peers report: our value, each peer's, the ratio against the best peer and
 * whether the target is met. Areas return these; the report and the chart only render them.
 * @module
 */

/** A target from issue 17: a bound on the ratio against the best peer, or on our own value. */
export type Target =
  | { kind: "ratio-max"; value: number }
  | { kind: "ratio-min"; value: number }
  | { kind: "max"; value: number; unit: string };

/** One metric, ours against the peers; null means not measured or not possible, `why` says which. */
export interface Row {
  metric: string;
  unit: string;
  ours: number | null;
  peers: Record<string, number | null>;
  better: "lower" | "higher";
  target?: Target;
  /** Why a value is missing, or what the row means; shown under the table. */
  note?: string;
}

/** One area of the report: a table of rows with the peer columns it compares against. */
export interface Area {
  id: string;
  title: string;
  /** How it was measured, one paragraph. */
  method: string;
  peerColumns: string[];
  rows: Row[];
  /** Set when the area could not run: the report keeps its heading and says why. */
  notMeasured?: string;
  /** Extra markdown under the table (e.g. per-step trajectory detail). */
  details?: string[];
}

/** The peer value ours is compared with: the lowest (or highest) measured one. */
export function bestPeer(row: Row): { name: string; value: number } | null {
  let best: { name: string; value: number } | null = null;
  for (const [name, value] of Object.entries(row.peers)) {
    if (value === null || !Number.isFinite(value)) continue;
    const better = !best || (row.better === "lower" ? value < best.value : value > best.value);
    if (better) best = { name, value };
  }
  return best;
}

/** ours ÷ best peer, or null when either side is missing (or the best peer is 0). */
export function ratio(row: Row): number | null {
  const best = bestPeer(row);
  if (row.ours === null || !best || best.value === 0) return null;
  return row.ours / best.value;
}

/** "met", "missed", or "–" when there is no target or nothing to compare. */
export function verdict(row: Row): "met" | "missed" | "–" {
  const target = row.target;
  if (!target || row.ours === null) return "–";
  if (target.kind === "max") return row.ours <= target.value ? "met" : "missed";
  const r = ratio(row);
  if (r === null) return "–";
  return (target.kind === "ratio-max" ? r <= target.value : r >= target.value) ? "met" : "missed";
}

/** The target as the report prints it. */
export function targetText(target: Target | undefined): string {
  if (!target) return "–";
  if (target.kind === "max") return `≤ ${target.value.toLocaleString("en-US")} ${target.unit}`;
  return `${target.kind === "ratio-max" ? "≤" : "≥"} ${target.value}×`;
}

/** Median of `values` (the lower middle for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/**
 * Runs every variant `rounds` times, A B A B, reversing the order every other round so that drift in the
 * machine's load hits all of them alike; returns each variant's timings in ms.
 */
export async function interleave(rounds: number, variants: (() => Promise<unknown>)[]): Promise<number[][]> {
  const times = variants.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    const order = variants.map((_, index) => index);
    if (round % 2) order.reverse();
    for (const index of order) {
      const started = performance.now();
      await variants[index]();
      times[index].push(performance.now() - started);
    }
  }
  return times;
}
