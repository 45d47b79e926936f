/** Two spellings of one argument (`dry_run` and `dryRun`) are refused, never resolved by picking one. */
import assert from "node:assert/strict";
import { editFixture } from "./fixture.ts";

const EDITS = [{ old_text: "one", new_text: "two" }];

Deno.test("dry_run and dryRun together are refused naming both, in either order; nothing is written", async () => {
  await using f = await editFixture({ "a.txt": "one\n" });
  for (
    const args of [
      { path: "a.txt", dry_run: false, dryRun: true, edits: EDITS },
      { path: "a.txt", dryRun: true, dry_run: false, edits: EDITS },
      { path: "a.txt", dryRun: false, dry_run: true, edits: EDITS },
    ]
  ) {
    const failure = await f.fail("edit_file", args);
    assert.equal(failure.code, "invalid_argument", JSON.stringify(args));
    assert.equal(failure.kind, "invalid_request");
    assert.match(failure.text, /"dry_run" and "dryRun"|"dryRun" and "dry_run"/);
    assert.equal(await f.read("a.txt"), "one\n");
  }
  assert.deepEqual(await f.leftovers(), []);
});

Deno.test("two spellings inside an edit or of the path are refused too", async () => {
  await using f = await editFixture({ "a.txt": "one\n", "b.txt": "one\n" });
  const cases: [Record<string, unknown>, RegExp][] = [
    [
      { path: "a.txt", edits: [{ old_text: "one", oldText: "zzz", new_text: "two" }] },
      /"old_text" and "oldText"/,
    ],
    [
      { path: "a.txt", edits: [{ old_string: "one", old_text: "one", new_text: "two" }] },
      /"old_string" and "old_text"/,
    ],
    [{ path: "a.txt", filePath: "b.txt", edits: EDITS }, /"path" and "filePath"/],
    [{ path: "a.txt", old_text: "one", newText: "x", new_text: "two" }, /"newText" and "new_text"/],
    [
      { path: "a.txt", edits: [{ path: "a.txt", file_path: "b.txt", old_text: "one", new_text: "two" }] },
      /"path" and "file_path"/,
    ],
  ];
  for (const [args, named] of cases) {
    const failure = await f.fail("edit_file", args);
    assert.equal(failure.code, "invalid_argument", JSON.stringify(args));
    assert.match(failure.text, named);
  }
  assert.equal(await f.read("a.txt"), "one\n");
  assert.equal(await f.read("b.txt"), "one\n");
});

Deno.test("one spelling of each argument, camelCase or not, still works", async () => {
  await using f = await editFixture({ "a.txt": "one\n" });
  await f.edit("a.txt", [{ oldText: "one", newText: "two" }], { dryRun: false });
  assert.equal(await f.read("a.txt"), "two\n");
});

Deno.test("an edit's field beside edits is refused, never dropped; nothing is written", async () => {
  await using f = await editFixture({ "a.txt": "one\ntwo\n" });
  for (const key of ["old_text", "new_text", "replace_all", "oldText"]) {
    const args = { path: "a.txt", edits: [{ old_text: "one", new_text: "1" }], [key]: key === "replace_all" };
    const failure = await f.fail("edit_file", args);
    assert.equal(failure.code, "invalid_argument", key);
    assert.match(failure.text, /was given beside "edits"/, key);
    assert.equal(await f.read("a.txt"), "one\ntwo\n");
  }
});
