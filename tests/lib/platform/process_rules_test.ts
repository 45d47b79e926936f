import assert from "node:assert/strict";
import { posixProcess, shellName, tooLongToInline } from "../../../lib/platform/posix.ts";
import { powershellScript, utf16Base64 } from "../../../lib/platform/powershell.ts";
import {
  batchFile,
  CMD_COMMAND_LINE_MAX,
  quoteWindowsArgument,
  WINDOWS_COMMAND_LINE_MAX,
  windowsCommandLine,
  windowsProcess,
} from "../../../lib/platform/windows.ts";

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
  assert.match(script, /\nGet-Date \| Out-String\n\n\$global:__shellMcpOk = \$\?\nif \(\$global/);
  assert.equal(utf16Base64("dir"), "ZABpAHIA");
  const merged = decodeUtf16(windowsProcess.shellArgv("powershell", "x", { mergeStderr: true }).args[6]);
  assert.match(merged, /& \{\nx\n\n\$global:__shellMcpOk = \$\?\n\} \*>&1\n/);
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
  assert.match(ps1.content, /^\ufeff\[Console\]::OutputEncoding=.*\ndir\n\n\$global:__shellMcpOk = \$\?\n/s);
  assert.deepEqual(windowsProcess.scriptFileArgv("pwsh.exe", "C:\\T\\s.ps1").args.slice(-4), [
    "-ExecutionPolicy",
    "Bypass",
    "-File",
    "C:\\T\\s.ps1",
  ]);
  assert.deepEqual(windowsProcess.scriptFile("cmd", "dir"), {
    suffix: ".cmd",
    content: "@echo off\r\ndir\r\nexit /b %ERRORLEVEL%\r\n",
  });
  assert.deepEqual(windowsProcess.scriptFileArgv("cmd", "C:\\T\\s.cmd", { mergeStderr: true }), {
    program: "cmd",
    args: ["/d", "/s", "/c", '""C:\\T\\s.cmd" 2>&1"'],
    rawArguments: true,
  });
});

Deno.test("the PowerShell wrapper takes $? right after the script, then exits 0, the native code, or 1", () => {
  const prelude = "[Console]::OutputEncoding=[Text.Encoding]::UTF8;$OutputEncoding=[Text.Encoding]::UTF8;" +
    "$ProgressPreference='SilentlyContinue';";
  const rule = "if ($global:__shellMcpOk) { exit 0 }\nif ($LASTEXITCODE) { exit $LASTEXITCODE }\nexit 1";
  // The blank line ends a statement the script's last line continues with a backtick.
  assert.equal(
    powershellScript("Get-Item nope `"),
    `${prelude}\nGet-Item nope \`\n\n$global:__shellMcpOk = $?\n${rule}`,
  );
  // merge_stderr: $? is taken inside the merging block, where the script's last statement ran.
  assert.equal(
    powershellScript("cmd /c exit 3", { mergeStderr: true }),
    `${prelude}\n& {\ncmd /c exit 3\n\n$global:__shellMcpOk = $?\n} *>&1\n${rule}`,
  );
  // The same wrapper goes into -EncodedCommand and into a long script's .ps1 file.
  const encoded = windowsProcess.shellArgv("pwsh", "dir").args.at(-1)!;
  assert.equal(decodeUtf16(encoded), powershellScript("dir"));
  assert.equal(windowsProcess.scriptFile("pwsh", "dir").content, `\ufeff${powershellScript("dir")}`);
});

Deno.test("Windows arguments are quoted as Deno quotes them (MSVC rules), raw ones left alone", () => {
  assert.equal(quoteWindowsArgument(""), '""');
  assert.equal(quoteWindowsArgument("-NoLogo"), "-NoLogo");
  assert.equal(quoteWindowsArgument("C:\\Program Files\\x.exe"), '"C:\\Program Files\\x.exe"');
  assert.equal(quoteWindowsArgument('say "hi"'), '"say \\"hi\\""');
  assert.equal(quoteWindowsArgument('a\\"b'), '"a\\\\\\"b"');
  assert.equal(quoteWindowsArgument("dir\\ x\\"), '"dir\\ x\\\\"');
  assert.equal(
    windowsCommandLine({
      program: "C:\\W\\cmd.exe",
      args: ["/d", "/s", "/c", '"echo "a b""'],
      rawArguments: true,
    }),
    'C:\\W\\cmd.exe /d /s /c "echo "a b""',
  );
  assert.equal(windowsCommandLine({ program: "pwsh", args: ["-c", "a b"] }), 'pwsh -c "a b"');
});

Deno.test("Windows runs a script from a file past the command-line limit: ~12,000 characters for pwsh", () => {
  const pwsh = "C:\\Program Files\\PowerShell\\7\\pwsh.exe";
  const inline = (shell: string, command: string) =>
    !windowsProcess.needsScriptFile(windowsProcess.shellArgv(shell, command));
  // Base64 of UTF-16 is 8/3 of the script: 11,500 characters fit in 32,766, 12,100 do not.
  assert.equal(inline(pwsh, "x".repeat(11_500)), true);
  assert.equal(inline(pwsh, "x".repeat(12_100)), false);
  assert.equal(inline("powershell", "x".repeat(12_100)), false);
  const edge = windowsCommandLine(windowsProcess.shellArgv(pwsh, "x".repeat(11_500))).length;
  assert.ok(edge > 31_000 && edge <= WINDOWS_COMMAND_LINE_MAX, String(edge));
  // Other shells (Git Bash): the plain command line limit, quoting included.
  assert.equal(inline("bash", "x".repeat(32_000)), true);
  assert.equal(inline("bash", '"'.repeat(16_400)), false);
  // cmd: its own 8,191-character limit, and any line break (cmd /c would drop every line after the first).
  assert.equal(inline("cmd", "x".repeat(8_000)), true);
  assert.equal(inline("cmd", "x".repeat(CMD_COMMAND_LINE_MAX)), false);
  assert.equal(inline("cmd", "echo a\necho b"), false);
  assert.equal(inline("cmd", "echo a & echo b"), true);
  // POSIX keeps its 32 KiB argv rule, line breaks and all.
  assert.equal(posixProcess.needsScriptFile(posixProcess.shellArgv("bash", "echo a\necho b")), false);
  assert.equal(posixProcess.needsScriptFile(posixProcess.shellArgv("bash", "x".repeat(33_000))), true);
});

Deno.test("a batch file has CRLF lines and exits with the last command's ERRORLEVEL", () => {
  assert.equal(
    batchFile("echo a\necho b\r\nexit /b 3"),
    "@echo off\r\necho a\r\necho b\r\nexit /b 3\r\nexit /b %ERRORLEVEL%\r\n",
  );
});
