/**
 * A downstream server that breaks its connection without exiting, or answers with error codes the SDK also
 * uses for its own failures: the gateway must tell what really happened, at once, and recover.
 */
import assert from "node:assert/strict";
import { listProcesses } from "../../../lib/process/processes.ts";
import { os } from "../../../lib/platform/mod.ts";
import { textOf } from "../../_support/connect.ts";
import { waitFor } from "../../_support/poll.ts";
import { closeOutWrapper, scriptServer } from "./_config.ts";
import { front } from "./_gateway.ts";

const posixOnly = { ignore: os === "windows" };

async function alive(pid: number): Promise<boolean> {
  const rows = await listProcesses();
  return rows?.some((row) => row.pid === pid && !row.zombie) ?? false;
}

Deno.test(
  "hostile connection: a server that closes its stdout and lives on fails its call at once, is killed and restarts",
  posixOnly,
  async () => {
    // A long timeout: before the fix the call waited it out and came back as [timeout], not [unavailable].
    await using gateway = await front([
      closeOutWrapper(scriptServer("hostile", "hostile.ts", { callTimeoutMs: 60_000 })),
    ]);
    const before = gateway.downstreams.pidOf("hostile")!;
    assert.ok(before > 0 && await alive(before));

    const failed = await gateway.call("hostile__closeout");
    assert.equal(failed.isError, true);
    assert.match(
      textOf(failed),
      /^Error \[unavailable\]: Cannot call "closeout" on MCP server "hostile": the connection closed mid-call \(the server closed its stdout while still running, so it was stopped\); the next call restarts it$/,
    );
    const [status] = gateway.downstreams.status();
    assert.equal(status.state, "down");
    assert.match(status.reason ?? "", /closed its stdout while still running/);
    await waitFor("the server that closed its stdout to be killed", async () => !await alive(before));

    assert.ok(Number(textOf(await gateway.call("hostile__pid"))) > 0);
    const after = gateway.downstreams.pidOf("hostile");
    assert.ok(after !== undefined && after !== before, `a new process: ${before} then ${after}`);
    assert.equal(gateway.downstreams.status()[0].state, "up");
  },
);

Deno.test("hostile connection: a storm of 5,000 tools/list_changed costs at most two re-lists; the latest list wins and calls answer", async () => {
  await using gateway = await front([scriptServer("hostile", "hostile.ts")]);
  assert.equal(textOf(await gateway.call("hostile__lists")), "1");
  const listed = () => gateway.downstreams.catalog().some((tool) => tool.name === "stormed");
  const relisted = new Promise<void>((resolve) => {
    const stop = gateway.downstreams.onCatalogChanged(() => listed() && (stop(), resolve()));
  });
  assert.equal(textOf(await gateway.call("hostile__storm", { count: 5_000 })), "stormed");
  await relisted;
  // Before the fix, 5,000 tools/list requests reached the server ahead of this call.
  const lists = Number(textOf(await gateway.call("hostile__lists")));
  assert.ok(lists >= 2 && lists <= 3, `${lists - 1} tools/list requests for one storm`);
  assert.ok(Number(textOf(await gateway.call("hostile__pid"))) > 0);
});

Deno.test("hostile connection: a tool's error reply with the SDK's own codes (-32000, -32001) is relayed as the server's error", async () => {
  await using gateway = await front([scriptServer("hostile", "hostile.ts")]);
  const pid = gateway.downstreams.pidOf("hostile");
  for (const code of [-32000, -32001, -32000]) {
    const result = await gateway.call("hostile__fail", { code });
    assert.equal(result.isError, true);
    // Before the fix: "[unavailable] … the server exited mid-call" and "[timeout] … timed out after 20000ms".
    assert.equal(
      textOf(result),
      `Error [internal]: Cannot call "fail" on MCP server "hostile": MCP error ${code}: the tool refused: quota exceeded for project 7`,
    );
  }
  assert.equal(gateway.downstreams.status()[0].state, "up");
  assert.equal(gateway.downstreams.pidOf("hostile"), pid, "the same process: nothing restarted it");
});
