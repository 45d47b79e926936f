/** The sandbox settings come from the user's environment and a trusted file, never weakened by a bad value. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readSandboxConfig } from "../../../lib/sandbox/config.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { isWindows } from "../../../lib/platform/mod.ts";

Deno.test("config: defaults are auto, network allow, nothing added", async () => {
  const config = await readSandboxConfig({ HOME: "/home/u" }, undefined);
  assert.deepEqual(
    { mode: config.mode, source: config.modeSource, network: config.network, write: config.write },
    { mode: "auto", source: "default", network: "allow", write: [] },
  );
  assert.deepEqual(config.problems, []);
});

Deno.test("config: env values, ~ expanded, relative paths refused, domains split and lowered", async () => {
  const config = await readSandboxConfig({
    HOME: "/home/u",
    MCP_SANDBOX: "Require",
    MCP_SANDBOX_WRITE: "~/.npm:/opt/x:rel/dir",
    MCP_SANDBOX_DENY_READ: "~/secrets",
    MCP_SANDBOX_NETWORK: "on",
    MCP_SANDBOX_DOMAINS: "Example.com, *.corp.net  other.org",
  }, undefined);
  assert.equal(config.mode, "require");
  assert.equal(config.modeSource, "MCP_SANDBOX=Require");
  assert.deepEqual(config.write, ["/home/u/.npm", "/opt/x"]);
  assert.deepEqual(config.denyRead, ["/home/u/secrets"]);
  assert.equal(config.network, "on");
  assert.deepEqual(config.domains, ["example.com", "*.corp.net", "other.org"]);
  assert.match(config.problems.join("\n"), /MCP_SANDBOX_WRITE: ignored "rel\/dir" \(not an absolute path\)/);
});

Deno.test("config: a value that cannot be read never weakens: bad mode → require, bad network → off", async () => {
  const config = await readSandboxConfig({ MCP_SANDBOX: "of", MCP_SANDBOX_NETWORK: "everything" }, undefined);
  assert.equal(config.mode, "require");
  assert.equal(config.network, "off");
  assert.equal(config.problems.length, 2);
});

Deno.test({
  name: "config: sandbox.json adds to the env's lists; env wins for single values; an open file is ignored",
  ignore: isWindows,
  fn: async () => {
    await using dir = await tempWorkspace();
    const folder = join(dir.path, "continue-mcp");
    await Deno.mkdir(folder, { mode: 0o700 });
    const file = join(folder, "sandbox.json");
    await Deno.writeTextFile(
      file,
      JSON.stringify({ MCP_SANDBOX: "off", MCP_SANDBOX_WRITE: ["/data"], MCP_SANDBOX_DOMAINS: "a.org" }),
      { mode: 0o600 },
    );
    await Deno.chmod(file, 0o600);
    const fromFile = await readSandboxConfig({ MCP_SANDBOX_WRITE: "/env" }, dir.path);
    assert.equal(fromFile.mode, "off");
    assert.equal(fromFile.modeSource, "MCP_SANDBOX in sandbox.json");
    assert.deepEqual(fromFile.write, ["/env", "/data"]);
    assert.deepEqual(fromFile.domains, ["a.org"]);
    assert.equal((await readSandboxConfig({ MCP_SANDBOX: "require" }, dir.path)).mode, "require");
    // Writable by others: anyone could have widened our sandbox through it.
    await Deno.chmod(file, 0o666);
    const open = await readSandboxConfig({}, dir.path);
    assert.equal(open.mode, "auto");
    assert.match(open.problems.join("\n"), /ignored .*sandbox\.json: .* is writable by other users/);
  },
});
