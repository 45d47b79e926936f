import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { boot } from "../../../mcp/gateway/boot.ts";
import { connect } from "../../_support/connect.ts";
import { waitFor } from "../../_support/poll.ts";

const FIXTURE = fileURLToPath(new URL("./_servers/fixture.ts", import.meta.url));

/** A config text with one fixture server per entry, each with its own endpoint and tool filter. */
function configText(entries: Record<string, string[]>): string {
  const servers = Object.fromEntries(
    Object.entries(entries).map(([name, allow]) => [name, {
      command: Deno.execPath(),
      args: ["run", "--no-prompt", "--quiet", "-A", FIXTURE],
      env: { ROLE: name },
      tools: { allow },
    }]),
  );
  return JSON.stringify({ mcpServers: servers }, null, 2);
}

/** Saves as editors do: a temp file renamed over the old one. */
async function save(file: string, text: string): Promise<void> {
  await Deno.writeTextFile(`${file}.saving`, text);
  await Deno.rename(`${file}.saving`, file);
}

Deno.test("config watch: edits apply live; a broken config is reported and the last good one kept", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gateway-watch-" });
  try {
    const file = join(dir, "gateway.jsonc");
    await Deno.writeTextFile(file, configText({ one: ["pid"] }));
    await using c = await connect(await boot(["--config", file], {}));
    const search = () => c.text("gateway_search", { query: "process id wait" });
    await waitFor("the first server's tools", async () => (await search()).includes("one__pid"));
    assert.ok(!(await search()).includes("one__wait"));

    await save(file, configText({ one: ["pid", "wait"], two: ["pid"] }));
    await waitFor("the added server and the widened filter", async () => {
      const text = await search();
      return text.includes("two__pid") && text.includes("one__wait");
    });

    await Deno.writeTextFile(file, configText({ one: ["pid"] }).replace('"tools"', '"toools"'));
    await waitFor(
      "the config error in the health line",
      async () => (await search()).includes("config not reloaded"),
    );
    const broken = await search();
    assert.match(broken, /config not reloaded, the last good one is in use: .*gateway\.jsonc.*toools/);
    assert.ok(broken.includes("two__pid") && broken.includes("one__wait"), "the last good catalog stays");

    await save(file, configText({ one: ["pid"] }));
    await waitFor("the fixed config to apply", async () => {
      const text = await search();
      return !text.includes("config not reloaded") && !text.includes("two__pid") &&
        !text.includes("one__wait");
    });
    assert.ok((await search()).includes("one__pid"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
