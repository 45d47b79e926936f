import assert from "node:assert/strict";
import { Downstreams } from "../../../mcp/gateway/downstream.ts";
import type { ServerConfig } from "../../../mcp/gateway/types.ts";
import { os } from "../../../lib/platform/mod.ts";
import { listProcesses } from "../../../lib/process/processes.ts";
import { textOf } from "../../_support/connect.ts";
import { waitFor } from "../../_support/poll.ts";
import { scriptServer } from "./_config.ts";

const posixOnly = { ignore: os === "windows" };

function open(configs: ServerConfig[]): Downstreams {
  const log = { info: () => {}, error: () => {} };
  return new Downstreams(configs, { log });
}

/** A fixture entry with its own endpoint (the env makes it one). */
const fixture = (name: string, role = name, options: Partial<ServerConfig> = {}) =>
  scriptServer(name, "fixture.ts", { env: { ROLE: role }, ...options });

async function alive(pid: number): Promise<boolean> {
  const rows = await listProcesses();
  return rows?.some((row) => row.pid === pid && !row.zombie) ?? false;
}

const names = (downstreams: Downstreams) => downstreams.catalog().map((tool) => tool.qualifiedName);

Deno.test("reload: hot reload of one entry with another mid-call", posixOnly, async () => {
  await using downstreams = open([fixture("keep"), fixture("change"), fixture("gone")]);
  await downstreams.start();
  const [keep, change, gone] = ["keep", "change", "gone"].map((name) => downstreams.pidOf(name)!);
  const abort = new AbortController();
  const inflight = downstreams.call("keep__wait", {}, { signal: abort.signal }).then(
    () => "finished",
    (error) => String(error).includes("done waiting") ? "aborted by its caller" : `failed: ${error}`,
  );
  const counts = async () => textOf(await downstreams.call("keep__cancellations", {}));
  await waitFor("the wait call to start", async () => await counts() === "1 waited, 0 cancelled");

  const report = downstreams.reconfigure([
    fixture("keep"),
    fixture("change", "changed"),
    fixture("new"),
  ]);
  await downstreams.settled();

  assert.deepEqual(report, {
    added: ["new"],
    removed: ["gone"],
    restarted: ["change"],
    updated: [],
    unchanged: ["keep"],
  });
  assert.equal(downstreams.pidOf("keep"), keep);
  assert.notEqual(downstreams.pidOf("change"), change);
  assert.equal(Number(textOf(await downstreams.call("change__pid", {}))), downstreams.pidOf("change"));
  assert.ok(names(downstreams).includes("new__pid"));
  assert.ok(!names(downstreams).some((name) => name.startsWith("gone__")));
  assert.deepEqual(downstreams.status().map((status) => [status.name, status.state]), [
    ["keep", "up"],
    ["change", "up"],
    ["new", "up"],
  ]);
  assert.equal(await counts(), "1 waited, 0 cancelled", "the call in flight still runs on the same server");
  abort.abort(new Error("done waiting"));
  assert.equal(await inflight, "aborted by its caller");
  assert.equal(await counts(), "1 waited, 1 cancelled");
  await waitFor(
    "the removed and replaced children to exit",
    async () => !await alive(gone) && !await alive(change),
  );
});

Deno.test(
  "reload: a call in flight on a restarted entry finishes on the old server, which then exits",
  posixOnly,
  async () => {
    await using downstreams = open([fixture("change")]);
    await downstreams.start();
    const old = downstreams.pidOf("change")!;
    const abort = new AbortController();
    const inflight = downstreams.call("change__wait", {}, { signal: abort.signal }).then(
      () => "finished",
      (error) => String(error).includes("done waiting") ? "aborted by its caller" : `failed: ${error}`,
    );
    await waitFor(
      "the wait call to start",
      async () => textOf(await downstreams.call("change__cancellations", {})) === "1 waited, 0 cancelled",
    );

    const report = downstreams.reconfigure([fixture("change", "changed")]);
    await downstreams.settled();

    assert.deepEqual(report.restarted, ["change"]);
    const fresh = Number(textOf(await downstreams.call("change__pid", {})));
    assert.notEqual(fresh, old);
    assert.ok(await alive(old), "the old server waits for its call in flight");
    abort.abort(new Error("done waiting"));
    assert.equal(await inflight, "aborted by its caller");
    await waitFor("the old server to exit once idle", async () => !await alive(old));
    assert.ok(await alive(fresh));
  },
);

Deno.test("reload: a filter or description change re-indexes without a restart", async () => {
  await using downstreams = open([fixture("keep")]);
  await downstreams.start();
  const pid = downstreams.pidOf("keep");
  let changes = 0;
  downstreams.onCatalogChanged(() => changes++);

  const report = downstreams.reconfigure([
    fixture("keep", "keep", {
      tools: { allow: [], deny: ["wait"] },
      descriptions: { pid: "Which process serves this" },
      callTimeoutMs: 5_000,
    }),
  ]);
  await downstreams.settled();

  assert.deepEqual(report.updated, ["keep"]);
  assert.deepEqual(report.restarted, []);
  assert.equal(downstreams.pidOf("keep"), pid);
  assert.ok(changes > 0, "onCatalogChanged fired");
  assert.ok(!names(downstreams).includes("keep__wait"));
  const described = downstreams.catalog().find((tool) => tool.qualifiedName === "keep__pid");
  assert.equal(described?.description, "Which process serves this");
});

Deno.test("reload: entries sharing one endpoint stay correct when one of them moves", posixOnly, async () => {
  await using downstreams = open([fixture("a", "shared"), fixture("b", "shared")]);
  await downstreams.start();
  const shared = downstreams.pidOf("a")!;
  assert.equal(downstreams.pidOf("b"), shared);

  const moved = downstreams.reconfigure([fixture("a", "shared"), fixture("b", "own")]);
  await downstreams.settled();
  assert.deepEqual(moved.restarted, ["b"]);
  assert.equal(downstreams.pidOf("a"), shared);
  const own = downstreams.pidOf("b")!;
  assert.notEqual(own, shared);
  assert.equal(downstreams.status()[0].sharedWith, undefined);

  const back = downstreams.reconfigure([fixture("a", "shared"), fixture("b", "shared")]);
  await downstreams.settled();
  assert.deepEqual(back.restarted, ["b"]);
  assert.equal(downstreams.pidOf("b"), shared);
  assert.deepEqual(downstreams.status()[0].sharedWith, ["b"]);
  assert.equal(Number(textOf(await downstreams.call("b__pid", {}))), shared);
  await waitFor("b's own server to exit", async () => !await alive(own));
});

Deno.test("reload: disabling and removing entries drops their tools; a closed gateway ignores reloads", async () => {
  const downstreams = open([fixture("a"), fixture("b")]);
  await downstreams.start();
  const report = downstreams.reconfigure([fixture("a", "a", { enabled: false })]);
  await downstreams.settled();
  assert.deepEqual(report.removed, ["a", "b"]);
  assert.deepEqual(names(downstreams), []);
  assert.deepEqual(downstreams.status().map((status) => status.state), ["disabled"]);
  await downstreams.close();
  const late = downstreams.reconfigure([fixture("c")]);
  await downstreams.settled();
  assert.deepEqual(late.added, ["c"]);
  assert.deepEqual(names(downstreams), []);
});
