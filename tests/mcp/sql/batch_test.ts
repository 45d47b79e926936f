import assert from "node:assert/strict";
import { fileURLToPath as fromFileUrl } from "node:url";
import { formatBatch, lintBatch } from "../../../mcp/sql/batch.ts";
import { CHUNK_LIMITS, MAX_CHUNK_FILES, planChunks } from "../../../mcp/sql/chunks.ts";
import { chooseConfig } from "../../../mcp/sql/workspace_config.ts";
import { renderFormatted, renderLint } from "../../../mcp/sql/render.ts";
import type { Backend } from "../../../mcp/sql/backend.ts";
import { isWindows } from "../../../lib/platform/mod.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { waitFor } from "../../_support/poll.ts";

const FAKE = fromFileUrl(new URL("./fake_sqruff.ts", import.meta.url));

Deno.test("planChunks: tiny files go 16 a chunk, bigger ones share the bytes over the workers", () => {
  const tiny = planChunks(Array(30).fill(40), 2);
  assert.deepEqual(tiny.map((chunk) => chunk.length), [MAX_CHUNK_FILES, 30 - MAX_CHUNK_FILES]);
  assert.deepEqual(tiny.flat(), [...Array(30).keys()], "every input once, in order");
  // 10 × 556 bytes over 2 workers: about 2.8 KB each, so both cores get work.
  assert.deepEqual(planChunks(Array(10).fill(556), 2).map((chunk) => chunk.length), [5, 5]);
  // A file bigger than a chunk is a chunk of its own.
  assert.deepEqual(planChunks([100, 50_000, 100], 2), [[0], [1], [2]]);
  assert.deepEqual(planChunks([], 2), []);
  // sqruff starts in ~0.06 s: 200 small models make one chunk per core, not 13 (the sqlfluff plan).
  const models = Array(200).fill(111);
  assert.equal(planChunks(models, 2).length, 13);
  assert.deepEqual(planChunks(models, 2, CHUNK_LIMITS.sqruff).map((chunk) => chunk.length), [100, 100]);
  assert.deepEqual(planChunks(Array(300).fill(111), 2, CHUNK_LIMITS.sqruff).length, 3);
});

/** 20 inputs (two chunks: 16 + 4); the second chunk holds the one the fake backend hangs on. */
async function hangingBatch() {
  const ws = await tempWorkspace({ "bin/": "" });
  const path = ws.join("bin", "sqruff");
  await Deno.writeTextFile(
    path,
    `#!/bin/sh\nexec "${Deno.execPath()}" run --quiet --no-config --allow-all "${FAKE}" "$@"\n`,
    { mode: 0o755 },
  );
  const backend: Backend = { kind: "sqruff", path, version: "0.40.0", major: 0 };
  const inputs = Array.from({ length: 20 }, (_, i) => ({
    name: `m/q${String(i).padStart(2, "0")}.sql`,
    content: i === 17 ? "SELECT 1 -- HANG\n" : `SELECT c${i} FROM t\n`,
  }));
  const log = ws.join("calls.jsonl");
  const stop = new AbortController();
  let done = 0;
  const options = {
    backend,
    config: await chooseConfig(backend, ws.path, { action: "Cannot lint SQL" }),
    timeoutMs: 600_000,
    concurrency: 2,
    // sqlfluff's chunks (16 files) with the fast fake sqruff: two chunks, one of them stuck.
    chunkLimits: CHUNK_LIMITS.sqlfluff,
    action: "Cannot lint SQL",
    env: { ...Deno.env.toObject(), FAKE_SQRUFF_LOG: log, FAKE_SQRUFF_HANG: "HANG" },
    stop: stop.signal,
    onProgress: (n: number) => done = n,
  };
  // Ends the batch only once the first chunk has reported and the other is stuck: no race with a timer.
  const stopWhenStuck = async () => {
    await waitFor("the first chunk", () => done === 16, 60_000);
    await waitFor("the hang", async () => (await Deno.readTextFile(log).catch(() => "")).includes("hanging"));
    stop.abort();
  };
  return { ws, inputs, options, stopWhenStuck };
}

Deno.test({
  name: "lint batch past its deadline: finished chunks' results come back, the stuck chunk's files are named",
  ignore: isWindows,
  async fn() {
    const { ws, inputs, options, stopWhenStuck } = await hangingBatch();
    await using _ws = ws;
    const [results] = await Promise.all([lintBatch(inputs, options), stopWhenStuck()]);
    for (const i of Array(16).keys()) {
      assert.deepEqual(results[i].violations.map((v) => v.code), ["CP01", "CP01"]);
    }
    for (const i of [16, 17, 18, 19]) {
      assert.deepEqual(results[i], { violations: [], skipped: "not finished within 600 s (timeout)" });
    }
    const text = renderLint(inputs.map((input, i) => ({ name: input.name, ...results[i] })), "label");
    assert.match(text, /^32 violations in 16 of 16 files \(CP01 ×32\); 4 of 20 not checked\n/);
    assert.match(
      text,
      /\nm\/q19\.sql: not checked, not finished within 600 s \(timeout\)\n\[4 files not finished in time: pass them again in a smaller batch, or raise SQL_MCP_TIMEOUT_MS\]\n\(label\)$/,
    );
  },
});

Deno.test({
  name: "format batch past its deadline: finished files are formatted, the stuck ones stay as they were",
  ignore: isWindows,
  async fn() {
    const { ws, inputs, options, stopWhenStuck } = await hangingBatch();
    await using _ws = ws;
    const [outcomes] = await Promise.all([
      formatBatch(inputs, { ...options, action: "Cannot format SQL" }),
      stopWhenStuck(),
    ]);
    assert.equal(outcomes[3].formatted, "select c3 from t\n");
    assert.equal(outcomes[3].skipped, undefined);
    assert.equal(outcomes[18].formatted, inputs[18].content);
    assert.equal(outcomes[18].skipped, "not finished within 600 s (timeout)");
    const text = renderFormatted(
      inputs.map((input, i) => ({ name: input.name, original: input.content, outcome: outcomes[i] })),
      "label",
    );
    assert.match(text, /\n-- == m\/q18\.sql: not formatted, not finished within 600 s \(timeout\) ==\n/);
    assert.match(text, /\n-- \[4 files not finished in time: pass them again in a smaller batch/);
  },
});
