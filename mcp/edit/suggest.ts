/** Similar file names for a "no such file" hint. */

/** Up to `limit` names from `names` that look like `wanted` (case, extension or a small typo away). */
export function similarNames(wanted: string, names: readonly string[], limit = 3): string[] {
  const lower = wanted.toLowerCase();
  const stem = (name: string) => name.toLowerCase().replace(/\.[^.]*$/, "");
  const scored = names.flatMap((name) => {
    const candidate = name.toLowerCase();
    if (candidate === lower) return [{ name, score: 0 }];
    if (stem(name) === stem(wanted)) return [{ name, score: 1 }];
    const distance = editDistance(lower, candidate, 3);
    if (distance <= Math.max(1, Math.min(3, Math.floor(lower.length / 4)))) {
      return [{ name, score: 1 + distance }];
    }
    if (candidate.startsWith(lower) || lower.startsWith(candidate)) return [{ name, score: 5 }];
    return [];
  });
  return scored.sort((a, b) => a.score - b.score || a.name.localeCompare(b.name)).slice(0, limit).map((s) =>
    s.name
  );
}

/** Levenshtein distance, giving up (returning `max + 1`) once it exceeds `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j] + 1,
        current[j - 1] + 1,
        previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      best = Math.min(best, current[j]);
    }
    if (best > max) return max + 1;
    previous = current;
  }
  return previous[b.length];
}
