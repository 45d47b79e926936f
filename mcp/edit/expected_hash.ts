/** expected_sha256, shared by edit_file and edit_write: the forms models send it in, and the `stale` check. */
import { editError } from "./errors.ts";

/** Accepts `SHA256:ABC…`, fs_read's `sha256 abc…` and stray spaces as models send them. */
export function normalizeHash(hash: string): string {
  return hash.trim().toLowerCase().replace(/^sha-?256\s*:?\s*/, "");
}

/** Whether `hash` is 64 hex digits once normalised. */
export function isHash(hash: string): boolean {
  return /^[0-9a-f]{64}$/.test(normalizeHash(hash));
}

/** Throws `stale` when the file's hash is not the one the model read. */
export function checkExpected(expected: string | undefined, current: string, display: string): void {
  if (expected === undefined || normalizeHash(expected) === current) return;
  throw editError(
    "stale",
    `Cannot change "${display}": it changed since it was read (expected_sha256 ${
      normalizeHash(expected)
    }, current ${current}); read it again`,
  );
}
