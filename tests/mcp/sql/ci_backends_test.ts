/**
 * The backend matrix is real in CI: every backend named in `SQL_MCP_TEST_BACKENDS` (`.ci/run`: all three;
 * GitHub's matrix: `sqruff,sqlfluff`) must be found, at the pinned version, or the per-backend tests would
 * pass by being ignored.
 */
import assert from "node:assert/strict";
import { BACKENDS, SQLFLUFF, SQLFLUFF_1, SQRUFF } from "./support.ts";

const PINS = new URL("../../../.ci/sql-backends.txt", import.meta.url);

/** The `name==version` pins of `.ci/sql-backends.txt`. */
async function pinnedVersions(): Promise<Map<string, string>> {
  const pins = new Map<string, string>();
  for (const line of (await Deno.readTextFile(PINS)).split("\n")) {
    const match = line.match(/^([A-Za-z0-9_.-]+)==(\S+)/);
    if (match) pins.set(match[1].toLowerCase(), match[2]);
  }
  return pins;
}

Deno.test("the pins name exact versions of sqruff and sqlfluff 4.x, each with a sha256 hash", async () => {
  const text = await Deno.readTextFile(PINS);
  const pins = await pinnedVersions();
  assert.match(pins.get("sqruff") ?? "", /^\d+\.\d+\.\d+$/);
  assert.match(pins.get("sqlfluff") ?? "", /^4\.\d+\.\d+$/);
  for (const line of text.split("\n").filter((l) => l && !l.startsWith("#"))) {
    assert.match(line, /^[A-Za-z0-9_.-]+==\S+ --hash=sha256:[0-9a-f]{64}$/, line);
  }
});

const REQUIRED = (Deno.env.get("SQL_MCP_TEST_BACKENDS") ?? "").split(",").map((n) => n.trim()).filter(
  Boolean,
);

Deno.test({
  name: `CI: the required backends (${REQUIRED.join(", ") || "none"}) are installed, at the pinned versions`,
  ignore: REQUIRED.length === 0,
  async fn() {
    const pins = await pinnedVersions();
    const unknown = REQUIRED.filter((name) => !BACKENDS.some((b) => b.name === name));
    assert.deepEqual(unknown, [], "SQL_MCP_TEST_BACKENDS names sqruff, sqlfluff, sqlfluff-1");
    const missing = BACKENDS.filter((b) => REQUIRED.includes(b.name) && b.found === null).map((b) => b.name);
    assert.deepEqual(missing, [], `run .ci/run first: it installs them (${missing.join(", ")} missing)`);
    if (REQUIRED.includes("sqruff")) {
      assert.equal(SQRUFF?.version, pins.get("sqruff"));
      // sqruff 0.44 needs both isolation flags; the PyPI build has them.
      assert.deepEqual(SQRUFF?.flags, ["--ignore-local-config", "--library-path"]);
    }
    if (REQUIRED.includes("sqlfluff")) assert.equal(SQLFLUFF?.version, pins.get("sqlfluff"));
    if (REQUIRED.includes("sqlfluff-1")) assert.equal(SQLFLUFF_1?.major, 1);
  },
});
