import assert from "node:assert/strict";
import { deniedNote, failedNotes, parseMessages } from "../../../lib/ripgrep/messages.ts";

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
    failed: [],
  });
  assert.deepEqual(parseMessages(""), { denied: [], other: [], failed: [] });
});

Deno.test("deniedNote names the unreadable paths, at most five", () => {
  assert.equal(deniedNote(["locked"]), '1 path could not be read (permission denied): "locked"');
  assert.equal(
    deniedNote(["a", "b", "c", "d", "e", "f", "g"]),
    '7 paths could not be read (permission denied): "a", "b", "c", "d", "e", +2 more',
  );
});

// Captured from ripgrep 15: `rg --pcre2 '(a+)+$|needle'` over a line of 60 "a" and a "b".
Deno.test("parseMessages names the files ripgrep gave up on, and why; failedNotes groups them by reason", () => {
  const stderr = [
    "rg: ./a.txt: PCRE2: error matching: match limit exceeded",
    "rg: ./odd: PCRE2: name.txt: PCRE2: error matching: depth limit exceeded",
    "rg: ./gone.txt: No such file or directory (os error 2)",
    "rg: ./locked: Permission denied (os error 13)",
    "rg: b.txt: PCRE2: error matching: match limit exceeded",
  ].join("\n");
  const { failed, denied, other } = parseMessages(stderr);
  assert.deepEqual(failed, [
    { path: "a.txt", reason: "PCRE2: error matching: match limit exceeded" },
    { path: "odd: PCRE2: name.txt", reason: "PCRE2: error matching: depth limit exceeded" },
    { path: "gone.txt", reason: "No such file or directory (os error 2)" },
    { path: "b.txt", reason: "PCRE2: error matching: match limit exceeded" },
  ]);
  assert.deepEqual(denied, ["locked"]);
  assert.equal(other.length, 4);
  assert.deepEqual(failedNotes(failed), [
    '2 files could not be searched (PCRE2: error matching: match limit exceeded): "a.txt", "b.txt"',
    '1 file could not be searched (PCRE2: error matching: depth limit exceeded): "odd: PCRE2: name.txt"',
    '1 file could not be searched (No such file or directory (os error 2)): "gone.txt"',
  ]);
  // A pattern PCRE2 cannot compile is a fatal error, not a file given up on.
  assert.deepEqual(
    parseMessages("rg: PCRE2: error compiling pattern at offset 2: missing closing parenthesis").failed,
    [],
  );
});
