import assert from "node:assert/strict";
import { deniedNote, parseMessages } from "../../../lib/ripgrep/messages.ts";

// The lines are ripgrep 15's own, captured running it as an unprivileged user over a mode-000 folder.
Deno.test("parseMessages sorts permission-denied paths from ripgrep's other messages", () => {
  const stderr = [
    "rg: ./locked: Permission denied (os error 13)",
    "rg: ./src/x: IO error for operation on ./src/x: Permission denied (os error 13)",
    "rg: locked: Permission denied (os error 13)",
    String.raw`rg: .\win\dir: Access is denied. (os error 5)`,
    "rg: ./a: b.txt: Permission denied (os error 13)",
    "rg: ./.gitignore: line 3: error parsing glob '[': unclosed character class",
  ].join("\n");
  assert.deepEqual(parseMessages(stderr), {
    denied: ["locked", "src/x", "locked", String.raw`win\dir`, "a: b.txt"],
    other: ["./.gitignore: line 3: error parsing glob '[': unclosed character class"],
  });
  assert.deepEqual(parseMessages(""), { denied: [], other: [] });
});

Deno.test("deniedNote names the unreadable paths, at most five", () => {
  assert.equal(deniedNote(["locked"]), '1 path could not be read (permission denied): "locked"');
  assert.equal(
    deniedNote(["a", "b", "c", "d", "e", "f", "g"]),
    '7 paths could not be read (permission denied): "a", "b", "c", "d", "e", +2 more',
  );
});
