/**
 * Unreadable folders. Root reads mode-000 folders anyway, so these run only as an ordinary user (CI runs as
 * root: the pure mapping is covered by tests/lib/ripgrep/messages_test.ts). To run them as root here:
 * `setpriv --reuid=65534 --regid=65534 --clear-groups env DENO_DIR=<a copy nobody can read> deno test -A <this file>`.
 */
import assert from "node:assert/strict";
import { textOf } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { connectSearch } from "./_connect.ts";
import { fsClient } from "../fs/_fixture.ts";
import { isWindows } from "../../../lib/platform/mod.ts";

const ignore = isWindows || Deno.uid() === 0;

async function lockedWorkspace() {
  const ws = await tempWorkspace({
    "a.xyz": "needle\n",
    "locked/s.txt": "needle\n",
    "locked/b.xyz": "needle\n",
  });
  await Deno.chmod(ws.join("locked"), 0o000);
  return {
    ...ws,
    async [Symbol.asyncDispose]() {
      await Deno.chmod(ws.join("locked"), 0o755);
      await ws[Symbol.asyncDispose]();
    },
  };
}

Deno.test({
  name: "search_glob and search_grep return what they could read and name the unreadable folder",
  ignore,
  async fn() {
    await using ws = await lockedWorkspace();
    await using c = await connectSearch(ws.path);
    const note = '1 path could not be read (permission denied): "locked"';
    assert.equal(await c.text("search_glob", { pattern: "*.xyz" }), `a.xyz\n\n1 file, newest first\n${note}`);
    assert.equal(
      await c.text("search_glob", { pattern: "b.xyz" }),
      `No files match "b.xyz" in . (gitignored and hidden files skipped)\n${note}`,
    );
    assert.equal(
      await c.text("search_grep", { pattern: "needle" }),
      `a.xyz\n1:needle\n\n1 matching line in 1 file\n${note}`,
    );
  },
});

Deno.test({
  name: "search and fs tools pointed at an unreadable folder fail with permission_denied naming it",
  ignore,
  async fn() {
    await using ws = await lockedWorkspace();
    await using s = await connectSearch(ws.path);
    await using f = await fsClient(ws.path);
    const cases: [typeof s, string, Record<string, unknown>, RegExp][] = [
      [
        s,
        "search_grep",
        { pattern: "needle", path: "locked" },
        /^Error \[permission_denied\]: Cannot search "locked"/,
      ],
      [
        s,
        "search_glob",
        { pattern: "*", path: "locked" },
        /^Error \[permission_denied\]: Cannot list files in "locked"/,
      ],
      [
        s,
        "search_grep",
        { pattern: "needle", path: "locked/s.txt" },
        /^Error \[permission_denied\]: Cannot use "locked\/s.txt"/,
      ],
      [
        f,
        "fs_list",
        { path: "locked" },
        /^Error \[permission_denied\]: Cannot list "locked": permission denied/,
      ],
      [f, "fs_read", { path: "locked/s.txt" }, /^Error \[permission_denied\]: Cannot use "locked\/s.txt"/],
      [f, "fs_stat", { path: "locked/s.txt" }, /^Error \[permission_denied\]: Cannot use "locked\/s.txt"/],
    ];
    for (const [client, tool, args, expected] of cases) {
      const result = await client.call(tool, args);
      assert.equal(result.isError, true, `${tool} ${JSON.stringify(args)}`);
      assert.match(textOf(result), expected);
    }
  },
});

Deno.test({
  name: "fs_list shows an unreadable folder as unreadable, not empty",
  ignore,
  async fn() {
    await using ws = await lockedWorkspace();
    await using f = await fsClient(ws.path);
    assert.equal(
      await f.text("fs_list", {}),
      [
        "./",
        "  locked/  (unreadable: permission denied)",
        "  a.xyz  7B",
        '[0 folders and 1 file shown of 1 file in all; 1 path could not be read (permission denied): "locked"]',
      ].join("\n"),
    );
  },
});
