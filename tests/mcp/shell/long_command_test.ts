/** Commands past the OS argument limits run from a private temp script; errors never echo them whole. */
import assert from "node:assert/strict";
import { connect, textOf } from "../../_support/connect.ts";
import { spawnStdio } from "../../_support/stdio.ts";
import { tempWorkspace } from "../../_support/workspace.ts";
import { isWindows } from "../../../lib/platform/mod.ts";
import { denoEval, readLineJs, shellServer } from "./processes.ts";

const posixOnly = { ignore: isWindows };

/** ~190 KB of numbered lines: what a heredoc writes. */
function bigText(): string {
  return Array.from({ length: 3000 }, (_, i) => `line ${i} ${"abcdefghij".repeat(4)} $HOME \`x\` 'q'`).join(
    "\n",
  ) +
    "\n";
}

Deno.test({
  name: "a 200 KB command whose heredoc writes a 190 KB file runs, and the file has the exact bytes",
  ...posixOnly,
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    const content = bigText();
    assert.ok(content.length > 190_000 && content.length < 200_000, `${content.length}`);
    const command = `cat > big.txt <<'EOF'\n${content}EOF\n` + `# ${"p".repeat(205_000 - content.length)}\n` +
      `stat -c 'mode=%a' "$0"; echo "script=$0"; wc -c < big.txt`;
    assert.ok(command.length > 200_000);
    const text = await c.text("shell_run", { command });
    assert.match(text, /^exit 0 after [^\n]*\nmode=600\nscript=\S+\n\d+$/);
    assert.equal(await Deno.readTextFile(`${ws.path}/big.txt`), content);
    // The temp script is private while the job runs and gone once it ended.
    const script = text.match(/script=(\S+)/)![1];
    await assert.rejects(Deno.stat(script), Deno.errors.NotFound);
  },
});

Deno.test({
  name: "a long script leaves stdin to the job: shell_input reaches a read in it",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    // A comment in bash and PowerShell alike, then a program that reads one line of the job's stdin.
    const command = `# ${"p".repeat(150_000)}\n${
      denoEval(`${readLineJs} console.log(\`got \${await readLine()}\`)`)
    }`;
    await c.text("shell_start", { command, stdin: "pipe" });
    assert.match(await c.text("shell_input", { job_id: 1, text: "hello", eof: true }), /\ngot hello$/);
  },
});

Deno.test({
  name: "a huge command that fails to start gets an error text of a few hundred characters",
  ...posixOnly,
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await connect(shellServer(ws.path));
    // One environment string over 128 KiB: the OS refuses the exec with "Argument list too long".
    const result = await c.call("shell_run", {
      command: `echo ${"x".repeat(200_000)}`,
      env: { BIG: "y".repeat(200_000) },
    });
    assert.equal(result.isError, true);
    const text = textOf(result);
    assert.ok(text.length <= 600, `error has ${text.length} characters`);
    assert.match(text, /^Error \[unavailable\]: Cannot start "echo x{195}… \[199,805 more characters\]": /);
  },
});

Deno.test({
  name: "stdio: with its declared permissions the server runs a command too long for argv",
  fn: async () => {
    await using ws = await tempWorkspace();
    await using c = await spawnStdio("shell", { cwd: ws.path });
    const result = await c.client.callTool({
      name: "shell_run",
      arguments: { command: `# ${"p".repeat(150_000)}\necho long-ok` },
    });
    assert.match(textOf(result as never), /^exit 0 after [^\n]*\nlong-ok$/);
  },
});
