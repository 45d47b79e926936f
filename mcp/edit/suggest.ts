/** Similar file names for a "no such file" hint. */
import { editDistance } from "../../lib/text/distance.ts";

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
