/** docs/security.md names the test that holds each promise: every file it names exists, every test name is in it. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "../tools/catalog.ts";

const doc = Deno.readTextFileSync(join(REPO_ROOT, "docs", "security.md"));

/** The table rows of the promises: `| attacker | promise | test |`, the test cell last. */
function testCells(): string[] {
  const promises = doc.slice(doc.indexOf("## Promises"), doc.indexOf("## What is stored"));
  return promises.split("\n").filter((line) => line.startsWith("| ") && !line.startsWith("| ---"))
    .filter((line) => !line.startsWith("| attacker")).map((line) => line.split(" | ").at(-1)!);
}

Deno.test("docs/security.md: each promise names a test file that exists, and each quoted test name is in it", () => {
  const cells = testCells();
  assert.ok(cells.length >= 30, `only ${cells.length} promises found`);
  for (const cell of cells) {
    const files = [...cell.matchAll(/`([\w/.-]+_test\.ts)`/g)].map((match) => match[1]);
    assert.ok(files.length > 0, `no test file named in: ${cell}`);
    const texts = files.map((file) => {
      try {
        return Deno.readTextFileSync(join(REPO_ROOT, "tests", file));
      } catch {
        throw new Error(`docs/security.md names tests/${file}, which does not exist`);
      }
    });
    for (const [, quoted] of cell.matchAll(/"([^"]+)"/g)) {
      const words = quoted.split("…").map((part) => part.trim()).filter((part) => part.length >= 8);
      for (const words_ of words) {
        assert.ok(
          texts.some((text) => text.includes(words_)),
          `docs/security.md quotes a test "${quoted}" not found in ${files.join(", ")}`,
        );
      }
    }
  }
});
