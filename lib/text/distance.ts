/** How far apart two names are, for the "did you mean" suggestions of every server. */

/**
 * Damerau-Levenshtein distance (optimal string alignment: a swap of two neighbours costs 1). With `max`,
 * gives up early and returns `max + 1` once the distance must exceed it.
 */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let previousBest = 0;
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      let cell = Math.min(
        previous[j] + 1,
        current[j - 1] + 1,
        previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        cell = Math.min(cell, beforePrevious[j - 2] + 1);
      }
      current[j] = cell;
      best = Math.min(best, cell);
    }
    // A swap reaches back two rows, so both must be past `max` before no path can come back under it.
    if (best > max && previousBest > max) return max + 1;
    beforePrevious = previous;
    previous = current;
    previousBest = best;
  }
  return Math.min(previous[b.length], max + 1);
}

/**
 * The known name an unknown one most likely meant: case, `-` vs `_` and camelCase are the usual slips;
 * after folding them, at most a third of the name may differ. Undefined when none is that close.
 */
export function closestName(key: string, known: readonly string[]): string | undefined {
  const fold = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase().replace(/-/g, "_");
  const folded = fold(key);
  const max = Math.max(1, Math.floor(folded.length / 3));
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(folded, fold(name), max);
    if (distance <= max && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}
