/** Realistic notes (up to 20 areas × 5 kinds) for the index-size tests and the notes benchmark. */
import type { WriteRequest } from "../../../mcp/notes/store.ts";

const AREAS = [
  "build",
  "tests",
  "ci",
  "release",
  "database",
  "auth",
  "api",
  "frontend",
  "logging",
  "config",
  // Areas 11-20, for a full page of 100 notes.
  "payments",
  "search",
  "cache",
  "queue",
  "mobile",
  "docs",
  "infra",
  "monitoring",
  "i18n",
  "billing",
];
const TOPICS = ["windows", "performance", "flaky", "onboarding", "security"];
const KINDS: Record<string, (area: string) => string> = {
  commands: (area) =>
    `Use \`deno task ${area}\` from the repo root; it needs Deno 2 and reads .env.local. ` +
    `Pass --filter to limit the run, and --watch while iterating.`,
  gotchas: (area) =>
    `The ${area} setup breaks on Windows when paths contain spaces, so quote every argument. ` +
    `Timeouts are 30 s by default, which is too short on CI runners.`,
  decisions: (area) =>
    `We chose plain files over a service for ${area} because it keeps local runs hermetic. ` +
    `Revisit this when the team grows past ten people or latency matters.`,
  layout: (area) =>
    `The ${area} code lives in src/${area}/ with one module per concern and tests beside it. ` +
    `Shared helpers go to src/lib/, never into a utils grab-bag.`,
  debugging: (area) =>
    `When ${area} misbehaves, set LOG=debug and rerun with --verbose to see each step. ` +
    `Most failures so far were stale caches; deleting .cache/${area} fixed them.`,
};

/** The write requests of `count` notes (50 or 100); each has a tag repeating its slug and one that does not. */
export function sampleNotes(count = 50): WriteRequest[] {
  return AREAS.slice(0, count / 5).flatMap((area) =>
    Object.entries(KINDS).map(([kind, text], i) => ({
      title: `${area[0].toUpperCase()}${area.slice(1)} ${kind}`,
      body: `${text(area)}\n\n## Details\n\n${text(area)}\n\n- One more detail about ${area}.\n`,
      tags: [area, TOPICS[i]],
    }))
  );
}
