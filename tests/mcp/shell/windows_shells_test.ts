/** pwsh, Windows PowerShell and cmd on a real Windows: exit codes, long scripts, multi-line cmd scripts. */
import assert from "node:assert/strict";
import { connect } from "../../_support/connect.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { isWindows } from "../../../lib/platform/mod.ts";
import { shellServer } from "./processes.ts";

const windowsOnly = { ignore: !isWindows };

/** A PowerShell comment long enough that the script goes through a `.ps1` file (see windows.ts). */
const LONG_COMMENT = `# ${"p".repeat(13_000)}\n`;

/** [command, exit code]: the last statement decides, as in bash; a failed native program gives its code. */
const POWERSHELL_CASES: [string, number][] = [
  ["Write-Output ok", 0],
  ["Get-Item C:\\no\\such\\path", 1],
  ["no-such-command-shell-mcp", 1],
  ["cmd /c exit 3", 3],
  ["cmd /c exit 3; Write-Output after", 0],
  ["Get-Item C:\\no\\such\\path; cmd /c exit 0", 0],
  ["Write-Output x; exit 7", 7],
  ["throw 'boom'", 1],
  ["1 / 0", 1],
];

for (const shell of ["pwsh", "powershell"]) {
  Deno.test({
    name: `${shell}: the exit code says whether the script's last statement failed, inline and from a file`,
    ...windowsOnly,
    fn: async () => {
      await using ws = await tempWorkspace();
      await using c = await connect(shellServer(ws.path));
      for (const [command, code] of POWERSHELL_CASES) {
        for (const [label, script] of [["inline", command], ["file", `${LONG_COMMENT}${command}`]]) {
          for (const merge of [false, true]) {
            const text = await c.text("shell_run", { command: script, shell, merge_stderr: merge });
            const header = text.slice(0, text.indexOf("\n"));
            assert.match(
              header,
              new RegExp(`^exit ${code} after`),
              `${shell} ${label}${merge ? " merged" : ""}: ${command}\n${text.slice(0, 500)}`,
            );
          }
        }
      }
    },
  });
}

Deno.test({
  name: "pwsh: a script of 12,000+ characters runs from a file and prints what it should",
  ...windowsOnly,
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    const text = await c.text("shell_run", {
      command: `${LONG_COMMENT}Write-Output long-ok`,
      shell: "pwsh",
    });
    assert.match(text, /^exit 0 after [^\n]*\nlong-ok$/);
  },
});

Deno.test({
  name: "cmd: exit codes, multi-line scripts (every line runs), merged stderr, 12,000-character scripts",
  ...windowsOnly,
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    assert.match(
      await c.text("shell_run", { command: "(echo one)& exit /b 3", shell: "cmd" }),
      /^exit 3 after/,
    );
    assert.match(
      await c.text("shell_run", { command: "dir C:\\no\\such\\path", shell: "cmd" }),
      /^exit 1 after/,
    );
    // cmd /c would run the first line only: a line break sends the script through a .cmd file.
    const lines = await c.text("shell_run", { command: "echo one\necho two\nexit /b 4", shell: "cmd" });
    assert.match(lines, /^exit 4 after [^\n]*\none\ntwo$/);
    const merged = await c.text("shell_run", {
      command: "echo out\necho err 1>&2\ndir C:\\no\\such\\path",
      shell: "cmd",
      merge_stderr: true,
    });
    assert.match(merged, /^exit 1 after [^\n]*\nout\s*\nerr/);
    assert.doesNotMatch(merged, /\[stderr\]/);
    // Past cmd's 8,191 characters in all; each line stays under that limit, which also holds in a batch file.
    const echoes = Array.from({ length: 200 }, (_, i) => `echo ${"y".repeat(50)}${i}`);
    const long = await c.text("shell_run", { command: echoes.join("\n"), shell: "cmd" });
    assert.match(long, new RegExp(`^exit 0 after [^\\n]*\\ny{50}0\\n(y{50}\\d+\\n){198}y{50}199$`));
  },
});
