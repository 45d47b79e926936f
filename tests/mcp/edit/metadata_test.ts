import assert from "node:assert/strict";
import { isWindows } from "../../../lib/platform/mod.ts";
import { getXattr, setXattr, xattrTool } from "../../_support/xattr.ts";
import { editFixture } from "./fixture.ts";

const mode = async (path: string) => (await Deno.stat(path)).mode! & 0o7777;

Deno.test({
  name: "an edit keeps setuid and setgid bits (06755), replaced by rename",
  ignore: isWindows,
  async fn() {
    await using f = await editFixture({ "tool": "#!/bin/sh\necho 1\n" });
    await Deno.chmod(f.join("tool"), 0o6755);
    await f.edit("tool", [{ old_text: "echo 1", new_text: "echo 2" }]);
    assert.equal(await f.read("tool"), "#!/bin/sh\necho 2\n");
    assert.equal((await mode(f.join("tool"))).toString(8), "6755");
    await f.call("edit_write", { path: "tool", content: "#!/bin/sh\necho 3\n", overwrite: true });
    assert.equal((await mode(f.join("tool"))).toString(8), "6755");
  },
});

Deno.test({
  name: "a hard-linked file keeps setuid and setgid bits, written in place",
  ignore: isWindows,
  async fn() {
    await using f = await editFixture({ "tool": "#!/bin/sh\necho 1\n" });
    await Deno.chmod(f.join("tool"), 0o6755);
    await Deno.link(f.join("tool"), f.join("twin"));
    const text = await f.edit("tool", [{ old_text: "echo 1", new_text: "echo 2" }]);
    assert.match(text, /note: written in place/);
    assert.equal(await f.read("twin"), "#!/bin/sh\necho 2\n");
    assert.equal((await mode(f.join("twin"))).toString(8), "6755");
  },
});

Deno.test({
  name: "a hard-linked file keeps its extended attributes (user.origin), written in place",
  ignore: xattrTool === null,
  async fn() {
    await using f = await editFixture({ "a.txt": "one\n" });
    await setXattr(f.join("a.txt"), "user.origin", "https://example.org/a.txt");
    await Deno.link(f.join("a.txt"), f.join("b.txt"));
    await f.edit("b.txt", [{ old_text: "one", new_text: "two" }]);
    assert.equal(await f.read("a.txt"), "two\n");
    assert.equal(await getXattr(f.join("a.txt"), "user.origin"), "https://example.org/a.txt");
  },
});
