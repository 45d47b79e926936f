/**
 * The OAuth token store: one file per config entry (config file, name, URL), 0600 in a 0700 folder; a
 * folder open to others or a link planted for the folder or for an entry's file is refused with the reason
 * (the gateway shows it as the server's), and never followed.
 */
import assert from "node:assert/strict";
import { parseConfig } from "../../../mcp/gateway/config.ts";
import { Downstreams } from "../../../mcp/gateway/downstream.ts";
import { type TokenOwner, TokenStore } from "../../../mcp/gateway/oauth/token_store.ts";
import { ToolError } from "../../../lib/mcp/errors.ts";
import { isWindows } from "../../../lib/platform/mod.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { startOAuthLab } from "./_remote/oauth_lab.ts";

const posix = { ignore: isWindows };
const tokens = { "access_token": "A1", "token_type": "Bearer" };

async function refused(promise: Promise<unknown>, why: RegExp): Promise<void> {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof ToolError, String(error));
    assert.equal(error.code, "permission_denied");
    assert.match(error.message, /^Cannot use the OAuth token store: /);
    assert.match(error.message, why);
    return true;
  });
}

Deno.test(
  "token store: one 0600 file per entry in a 0700 folder; another file, name or URL is another entry",
  posix,
  async () => {
    await using dir = await tempWorkspace({ "a.jsonc": "{}", "b.jsonc": "{}" });
    const store = new TokenStore(dir.join("oauth"));
    const work: TokenOwner = {
      configFile: dir.join("a.jsonc"),
      server: "work",
      url: "https://x.example/mcp",
    };
    const others: TokenOwner[] = [
      { ...work, configFile: dir.join("b.jsonc") },
      { ...work, server: "home" },
      { ...work, url: "https://x.example/mcp2" },
      { server: "work", url: work.url },
    ];
    await store.update(work, () => ({ tokens }));
    assert.deepEqual(await store.read(work), { tokens });
    for (const other of others) assert.deepEqual(await store.read(other), {}, JSON.stringify(other));
    assert.equal((await Deno.stat(store.dir)).mode! & 0o777, 0o700);
    assert.equal((await Deno.stat(await store.fileOf(work))).mode! & 0o777, 0o600);
    const names = new Set(await Promise.all([work, ...others].map((owner) => store.fileOf(owner))));
    assert.equal(names.size, 5);
    // One config file reached through a link is the same entry.
    await Deno.symlink(dir.join("a.jsonc"), dir.join("linked.jsonc"));
    assert.deepEqual(await store.read({ ...work, configFile: dir.join("linked.jsonc") }), { tokens });
  },
);

Deno.test("token store: a file whose recorded entry is another's reads as nothing", posix, async () => {
  await using dir = await tempWorkspace();
  const store = new TokenStore(dir.join("oauth"));
  const work: TokenOwner = { server: "work", url: "https://x.example/mcp" };
  const home: TokenOwner = { server: "home", url: work.url };
  await store.update(work, () => ({ tokens }));
  await Deno.rename(await store.fileOf(work), await store.fileOf(home));
  assert.deepEqual(await store.read(home), {});
});

Deno.test(
  "token store: a folder open to others, a linked folder, a planted link for a file: refused, not followed",
  posix,
  async () => {
    await using dir = await tempWorkspace({ "elsewhere/": "", "theirs.json": "{}" });
    const owner: TokenOwner = { server: "work", url: "https://x.example/mcp" };

    const open = new TokenStore(dir.join("open"));
    await Deno.mkdir(open.dir, { mode: 0o755 });
    await Deno.chmod(open.dir, 0o755);
    await refused(open.read(owner), /the folder ".*open" has mode 755, open to other users/);
    await refused(open.update(owner, () => ({ tokens })), /has mode 755/);

    await Deno.chmod(dir.join("elsewhere"), 0o700);
    await Deno.symlink(dir.join("elsewhere"), dir.join("linked"));
    await refused(new TokenStore(dir.join("linked")).update(owner, () => ({ tokens })), /is a symbolic link/);
    assert.deepEqual(
      await Array.fromAsync(Deno.readDir(dir.join("elsewhere"))),
      [],
      "nothing was written through the link",
    );

    const store = new TokenStore(dir.join("oauth"));
    await store.update({ ...owner, server: "other" }, () => ({ tokens }));
    const planted = await store.fileOf(owner);
    await Deno.writeTextFile(
      dir.join("theirs.json"),
      JSON.stringify({ tokens: { access_token: "PLANTED" } }),
    );
    await Deno.symlink(dir.join("theirs.json"), planted);
    await refused(store.read(owner), /is a symbolic link/);
    await refused(store.update(owner, () => ({ tokens })), /symbolic link/);
    assert.match(
      await Deno.readTextFile(dir.join("theirs.json")),
      /PLANTED/,
      "the link's target is untouched",
    );
  },
);

Deno.test("token store: the gateway shows a refused folder as the server's reason", posix, async () => {
  await using lab = startOAuthLab();
  await using dir = await tempWorkspace();
  const tokenDir = dir.join("oauth");
  await Deno.mkdir(tokenDir);
  await Deno.chmod(tokenDir, 0o777);
  const config = parseConfig(
    JSON.stringify({ mcpServers: { lab: { url: lab.mcpUrl } } }),
    dir.join("g.jsonc"),
    {},
  );
  await using downstreams = new Downstreams(config.servers, {
    log: { info() {}, error() {} },
    remote: { tokenDir },
  });
  await downstreams.start();
  const [status] = downstreams.status();
  assert.equal(status.state, "down");
  assert.match(status.reason ?? "", /Cannot use the OAuth token store: the folder ".*oauth" has mode 777/);
  assert.equal(lab.callers.length, 0);
});
