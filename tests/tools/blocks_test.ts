import assert from "node:assert/strict";
import { join } from "node:path";
import { blockYaml, directServers, writeExampleBlocks } from "../../tools/blocks.ts";
import { tempWorkspace } from "../_support/workspace.ts";

Deno.test("sync's blocks: only changed ones are written (.continue/ is read-only to a sandboxed job)", async () => {
  await using root = await tempWorkspace();
  await writeExampleBlocks(root.path);
  const dir = join(root.path, ".continue", "mcpServers");
  const [first, second] = directServers();
  const old = new Date("2020-01-01T00:00:00Z");
  for (const server of [first, second]) await Deno.utime(join(dir, `${server.name}.yaml`), old, old);
  await Deno.writeTextFile(join(dir, `${second.name}.yaml`), "stale\n");
  await Deno.utime(join(dir, `${second.name}.yaml`), old, old);
  await writeExampleBlocks(root.path);
  assert.equal((await Deno.stat(join(dir, `${first.name}.yaml`))).mtime?.getTime(), old.getTime());
  assert.equal(await Deno.readTextFile(join(dir, `${second.name}.yaml`)), blockYaml(second));
});
