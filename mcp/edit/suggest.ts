/** Similar file names for a "no such file" hint: only names a listing would show. */
import { editDistance } from "../../lib/text/distance.ts";
import { ignoredNames, type NamedEntry } from "../../lib/ripgrep/ignore_files.ts";

/**
 * Up to `limit` names in `folder` like `wanted`, leaving out hidden names and names an ignore file may hide:
 * the hint must not reveal a gitignored `.env` that fs_list and search never show.
 */
export async function visibleSimilarNames(folder: string, wanted: string, limit = 3): Promise<string[]> {
  const entries: NamedEntry[] = [];
  try {
    for await (const entry of Deno.readDir(folder)) {
      if (!entry.name.startsWith(".")) entries.push({ name: entry.name, isDirectory: entry.isDirectory });
    }
  } catch {
    return []; // No folder, no suggestions.
  }
  const close = similarNames(wanted, entries.map((entry) => entry.name), 10);
  const ignored = await ignoredNames(folder, entries.filter((entry) => close.includes(entry.name)));
  return close.filter((name) => !ignored.has(name)).slice(0, limit);
}

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
