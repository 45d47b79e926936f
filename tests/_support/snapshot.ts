/** JSON snapshots: `deno task test:update` rewrites them, otherwise a difference fails the test. */
import assert from "node:assert/strict";
import { fileURLToPath as fromFileUrl } from "node:url";

/** Asserts `value` equals the JSON stored at `file` (a URL relative to the test), or rewrites it on update. */
export async function assertSnapshot(file: URL, value: unknown): Promise<void> {
  const path = fromFileUrl(file);
  const actual = JSON.stringify(value, null, 2) + "\n";
  if (Deno.env.get("UPDATE_SNAPSHOTS") === "1") {
    await Deno.writeTextFile(path, actual);
    return;
  }
  let expected: string;
  try {
    expected = await Deno.readTextFile(path);
  } catch {
    throw new Error(`Snapshot ${path} is missing: run \`deno task test:update\``);
  }
  assert.deepEqual(
    JSON.parse(actual),
    JSON.parse(expected),
    `Snapshot ${path} differs: run \`deno task test:update\` if intended`,
  );
}
