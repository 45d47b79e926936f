import assert from "node:assert/strict";
import { posixProcess, shellName, tooLongToInline, utf16Base64 } from "../../../lib/platform/posix.ts";
import { windowsProcess } from "../../../lib/platform/windows.ts";

const decodeUtf16 = (b64: string) => {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  return new TextDecoder("utf-16le").decode(bytes);
};

Deno.test("posix shells get -c with the command as one argument; merge puts exec 2>&1 first", () => {
  assert.deepEqual(posixProcess.shellArgv("/bin/bash", "echo 'a b'"), {
    program: "/bin/bash",
    args: ["-c", "echo 'a b'"],
  });
  assert.deepEqual(posixProcess.shellArgv("sh", "ls", { mergeStderr: true }).args, ["-c", "exec 2>&1\nls"]);
  assert.equal(posixProcess.treeKillArgv(42), null);
  assert.equal(posixProcess.detached, true);
});

Deno.test("PowerShell gets -EncodedCommand (UTF-16LE base64) with a UTF-8 prelude and the exit code kept", () => {
  const { program, args } = windowsProcess.shellArgv(
    "C:\\Program Files\\PowerShell\\7\\pwsh.exe",
    "Get-Date | Out-String",
  );
  assert.equal(program, "C:\\Program Files\\PowerShell\\7\\pwsh.exe");
  assert.deepEqual(args.slice(0, 6), [
    "-NoLogo",
    "-NoProfile",
    "-NonInteractive",
    "-OutputFormat",
    "Text",
    "-EncodedCommand",
  ]);
  const script = decodeUtf16(args[6]);
  assert.match(script, /^\[Console\]::OutputEncoding=\[Text\.Encoding\]::UTF8;/);
  assert.match(script, /\nGet-Date \| Out-String\nif \(\$LASTEXITCODE\) \{ exit \$LASTEXITCODE \}$/);
  assert.equal(utf16Base64("dir"), "ZABpAHIA");
  const merged = decodeUtf16(windowsProcess.shellArgv("powershell", "x", { mergeStderr: true }).args[6]);
  assert.match(merged, /& \{\nx\n\} \*>&1/);
});

Deno.test("cmd gets /d /s /c with the command quoted once and passed verbatim", () => {
  assert.deepEqual(windowsProcess.shellArgv("C:\\Windows\\System32\\cmd.exe", 'echo "hi" & dir'), {
    program: "C:\\Windows\\System32\\cmd.exe",
    args: ["/d", "/s", "/c", '"echo "hi" & dir"'],
    rawArguments: true,
  });
  assert.equal(windowsProcess.shellArgv("cmd", "dir", { mergeStderr: true }).args[3], '"(dir) 2>&1"');
});

Deno.test("Windows kills trees with taskkill /T /F and never detaches", () => {
  assert.deepEqual(windowsProcess.treeKillArgv(1234), ["taskkill", "/T", "/F", "/PID", "1234"]);
  assert.equal(windowsProcess.detached, false);
  assert.deepEqual(windowsProcess.defaultShells, ["pwsh", "powershell"]);
});

Deno.test("shellName strips folders and .exe", () => {
  assert.equal(shellName("C:\\x\\PWSH.EXE"), "pwsh");
  assert.equal(shellName("/usr/bin/zsh"), "zsh");
});

Deno.test("a script too long for argv runs from a file: bash <file>, pwsh -File with a BOM, cmd a quiet .cmd", () => {
  const long = `echo ${"x".repeat(40_000)}`;
  assert.equal(tooLongToInline(posixProcess.shellArgv("bash", "echo hi")), false);
  assert.equal(tooLongToInline(posixProcess.shellArgv("bash", long)), true);
  // PowerShell's base64 UTF-16 is 2.7 times the script: 13,000 characters are already too many.
  assert.equal(tooLongToInline(windowsProcess.shellArgv("pwsh", "x".repeat(13_000))), true);
  assert.deepEqual(posixProcess.scriptFile("/bin/bash", "ls", { mergeStderr: true }), {
    suffix: ".sh",
    content: "exec 2>&1\nls",
  });
  assert.deepEqual(posixProcess.scriptFileArgv("/bin/bash", "/tmp/s.sh"), {
    program: "/bin/bash",
    args: ["/tmp/s.sh"],
  });
  const ps1 = windowsProcess.scriptFile("pwsh.exe", "dir");
  assert.equal(ps1.suffix, ".ps1");
  assert.match(ps1.content, /^\ufeff\[Console\]::OutputEncoding=.*\ndir\nif \(\$LASTEXITCODE\)/s);
  assert.deepEqual(windowsProcess.scriptFileArgv("pwsh.exe", "C:\\T\\s.ps1").args.slice(-4), [
    "-ExecutionPolicy",
    "Bypass",
    "-File",
    "C:\\T\\s.ps1",
  ]);
  assert.deepEqual(windowsProcess.scriptFile("cmd", "dir"), {
    suffix: ".cmd",
    content: "@echo off\r\ndir\r\n",
  });
  assert.deepEqual(windowsProcess.scriptFileArgv("cmd", "C:\\T\\s.cmd", { mergeStderr: true }), {
    program: "cmd",
    args: ["/d", "/s", "/c", '""C:\\T\\s.cmd" 2>&1"'],
    rawArguments: true,
  });
});
