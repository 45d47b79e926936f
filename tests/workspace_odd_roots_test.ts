/**
 * Roots and paths a server must refuse cleanly: the folder of every user's home (`/home`) whoever runs it,
 * a `file://` URL naming another machine, and the system folders Deno will not open (`/proc`), which must be
 * a one-sentence permission_denied, never `internal` with a stack trace.
 */
import assert from "node:assert/strict";
import { connect, type Connection, textOf } from "./_support/connect.ts";
import { tempWorkspace } from "./_support/workspace.ts";
import { os } from "../lib/platform/mod.ts";
import { requireRipgrep } from "../lib/ripgrep/locate.ts";
import { Workspace, type WorkspaceOptions } from "../lib/workspace/workspace.ts";
import { createServer as createFs } from "../mcp/fs/server.ts";
import { createServer as createSearch } from "../mcp/search/server.ts";

/** An fs and a search server over one workspace, optionally with client roots. */
async function servers(options: WorkspaceOptions, roots?: string[]): Promise<[Connection, Connection]> {
  const fs = await connect(createFs({ workspace: new Workspace(options) }), { roots });
  const search = await connect(
    createSearch({ workspace: new Workspace(options), ripgrep: requireRipgrep, timeoutMs: 30_000 }),
    { roots },
  );
  return [fs, search];
}

/** Asserts `text` is one error sentence with `code`: no stack trace, no second line. */
function oneSentence(text: string, code: string): void {
  assert.match(text, new RegExp(`^Error \\[${code}\\]: [^\\n]+$`), text);
  assert.doesNotMatch(text, /\bat (async )?\S+ \(|ext:deno_|NotCapable/, text);
}

Deno.test({
  name: "a root of /home is refused for every user, not only when it holds the server's own home",
  ignore: os !== "linux",
  async fn() {
    await using tmp = await tempWorkspace();
    // A server run as root: HOME=/root is not under /home, yet every user's files are.
    const [fs, search] = await servers({ cwd: tmp.path, homes: ["/root"] }, ["file:///home"]);
    await using _fs = fs;
    await using _search = search;
    for (const [c, tool] of [[fs, "fs_list"], [search, "search_glob"]] as const) {
      const text = await c.text(tool, tool === "fs_list" ? { path: "." } : { pattern: "*" });
      oneSentence(text, "permission_denied");
      assert.match(text, /the workspace root "\/home" holds every user's home folder/, text);
    }
    const env = new Workspace({ cwd: tmp.path, workspaceEnv: "/home", homes: ["/root"] });
    assert.deepEqual(env.roots, []);
  },
});

Deno.test({
  name: "a file URL naming another host is refused as a root and as a path, never read as a local path",
  ignore: os === "windows",
  async fn() {
    await using tmp = await tempWorkspace({ "a.txt": "mine\n" });
    const [fs, search] = await servers({ cwd: tmp.path, homes: [] }, ["file://evil.example/etc"]);
    await using _fs = fs;
    await using _search = search;
    const read = await fs.text("fs_read", { path: "passwd" });
    oneSentence(read, "permission_denied");
    assert.match(
      read,
      /the workspace root "file:\/\/evil\.example\/etc" names the host "evil\.example"/,
      read,
    );
    const grep = await search.text("search_grep", { pattern: "root" });
    oneSentence(grep, "permission_denied");
    // As a path argument, even where /etc is an allowed folder.
    await using local = await connect(
      createFs({ workspace: new Workspace({ cwd: tmp.path, allowDirsEnv: "/etc", homes: [] }) }),
    );
    const path = await local.text("fs_read", { path: "file://evil.example/etc/passwd" });
    oneSentence(path, "invalid_argument");
    assert.match(path, /names the host "evil\.example"/, path);
    assert.match(await local.text("fs_read", { path: "file://localhost/etc/hostname" }), /^\S/);
  },
});

Deno.test({
  name: "/proc as a root or a path is a one-sentence permission_denied in fs_read, fs_list and search",
  ignore: os !== "linux",
  async fn() {
    await using tmp = await tempWorkspace({ "a.txt": "mine\n" });
    // /proc/self/environ inside an allowed folder, and inside the workspace root itself.
    for (const options of [{ allowDirsEnv: "/proc" }, { workspaceEnv: "/proc/self" }]) {
      const [fs, search] = await servers({ cwd: tmp.path, homes: [], ...options });
      await using _fs = fs;
      await using _search = search;
      const path = "/proc/self/environ";
      oneSentence(await fs.text("fs_read", { path }), "permission_denied");
      oneSentence(await fs.text("fs_list", { path: "/proc/self" }), "permission_denied");
      oneSentence(await fs.text("fs_stat", { path }), "permission_denied");
      oneSentence(await search.text("search_grep", { pattern: "PATH", path }), "permission_denied");
      oneSentence(
        await search.text("search_grep", { pattern: "PATH", path: "/proc/self" }),
        "permission_denied",
      );
      oneSentence(
        await search.text("search_glob", { pattern: "*", path: "/proc/self" }),
        "permission_denied",
      );
    }
    // A root under /proc is refused up front: ripgrep, which Deno does not confine, never walks it.
    const [fs, search] = await servers({ cwd: tmp.path, homes: [], workspaceEnv: "/proc/self" });
    await using _fs = fs;
    await using _search = search;
    const grep = await search.text("search_grep", { pattern: "PATH" });
    oneSentence(grep, "permission_denied");
    assert.match(grep, /the workspace root "\/proc\/self"/, grep);
    assert.equal(textOf(await fs.call("fs_list", {})).split("\n").length, 1);
  },
});
