/**
 * Tool names that collide once normalised, from a real stdio server that lists `read.file` before
 * `read_file` and can send a tools/list_changed storm (issue 23, items 11 and 12): the exact name keeps its
 * name, and the collision is logged once however often the catalog is rebuilt.
 */
import assert from "node:assert/strict";
import { textOf } from "../../_support/connect.ts";
import { waitFor } from "../../_support/poll.ts";
import { Downstreams } from "../../../mcp/gateway/downstream.ts";
import { scriptServer } from "./_config.ts";

Deno.test("collisions: read_file keeps its name though read.file is listed first; the call reaches read_file", async () => {
  await using downstreams = new Downstreams([scriptServer("clash", "colliding.ts")], {
    log: { info() {}, error() {} },
  });
  await downstreams.start();
  const names = downstreams.catalog().map((tool) => tool.qualifiedName);
  assert.ok(names.includes("clash__read_file"), names.join(", "));
  assert.equal(textOf(await downstreams.call("clash__read_file", {})), "this is read_file");
  const dotted = names.find((name) => /^clash__read_file_[0-9a-f]{8}$/.test(name));
  assert.ok(dotted, names.join(", "));
  assert.equal(textOf(await downstreams.call(dotted, {})), "this is read.file");
});

Deno.test("collisions: a list_changed storm rebuilds the catalog each time and logs the collision once", async () => {
  const lines: string[] = [];
  await using downstreams = new Downstreams([scriptServer("clash", "colliding.ts")], {
    log: { info: (line) => lines.push(line), error() {} },
  });
  let rebuilds = 0;
  downstreams.onCatalogChanged(() => rebuilds++);
  await downstreams.start();
  const before = rebuilds;
  assert.equal(textOf(await downstreams.call("clash__churn", { count: 20 })), "announced 20");
  // Each notification re-lists the tools and rebuilds the catalog: the collision is found each time.
  await waitFor("rebuilds after the storm", () => rebuilds >= before + 2);
  const collisions = lines.filter((line) => /name collision/.test(line));
  assert.equal(collisions.length, 1, collisions.join("\n"));
  assert.match(collisions[0], /"clash" tool "read_file" and "clash" tool "read\.file" both become/);
});
