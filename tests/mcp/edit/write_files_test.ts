import assert from "node:assert/strict";
import { writeAll } from "../../../mcp/edit/write_files.ts";
import { editError, kindOf } from "../../../mcp/edit/errors.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

/** Real files, a writer that fails on the file named `failOn`, and a restore that may fail too. */
function writer(root: string, options: { failOn: string; cannotRestore?: string }) {
  const original = new Map<string, string>();
  const restored: string[] = [];
  return {
    restored,
    io: {
      async write(name: string) {
        if (name === options.failOn) throw editError("io_error", `Cannot edit "${name}": disk full (ENOSPC)`);
        original.set(name, await Deno.readTextFile(`${root}/${name}`));
        await Deno.writeTextFile(`${root}/${name}`, "new\n");
        return "rename" as const;
      },
      async restore(name: string) {
        if (name === options.cannotRestore) throw new Error("the folder is gone");
        await Deno.writeTextFile(`${root}/${name}`, original.get(name)!);
        restored.push(name);
      },
      display: (name: string) => name,
    },
  };
}

Deno.test("writeAll: a failing write puts back the files written before it, last first", async () => {
  await using ws = await tempWorkspace({ "a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n" });
  const w = writer(ws.path, { failOn: "c.txt" });
  await assert.rejects(writeAll(["a.txt", "b.txt", "c.txt"], w.io), (error: Error) => {
    assert.equal(kindOf(error), "io_error");
    assert.equal(
      error.message,
      'Cannot edit "c.txt": disk full (ENOSPC); the files written before it were put back ("a.txt", "b.txt")',
    );
    return true;
  });
  assert.deepEqual(w.restored, ["b.txt", "a.txt"]);
  assert.equal(await Deno.readTextFile(ws.join("a.txt")), "a\n");
  assert.equal(await Deno.readTextFile(ws.join("b.txt")), "b\n");
});

Deno.test("writeAll: a file that cannot be put back is named with the reason; the others still are", async () => {
  await using ws = await tempWorkspace({ "a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n" });
  const w = writer(ws.path, { failOn: "c.txt", cannotRestore: "a.txt" });
  await assert.rejects(
    writeAll(["a.txt", "b.txt", "c.txt"], w.io),
    /; the files written before it were put back \("b\.txt"\); could not put back, so they keep the new content: "a\.txt" \(the folder is gone\)$/,
  );
  assert.equal(await Deno.readTextFile(ws.join("a.txt")), "new\n");
  assert.equal(await Deno.readTextFile(ws.join("b.txt")), "b\n");
});

Deno.test("writeAll: the first write failing throws its error unchanged; success returns each method", async () => {
  await using ws = await tempWorkspace({ "a.txt": "a\n", "b.txt": "b\n" });
  await assert.rejects(
    writeAll(["a.txt", "b.txt"], writer(ws.path, { failOn: "a.txt" }).io),
    (error: Error) => {
      assert.equal(error.message, 'Cannot edit "a.txt": disk full (ENOSPC)');
      return true;
    },
  );
  assert.deepEqual(await writeAll(["a.txt", "b.txt"], writer(ws.path, { failOn: "" }).io), [
    "rename",
    "rename",
  ]);
});
