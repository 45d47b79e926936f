/**
 * How pwsh and Windows PowerShell run a job's script, on every OS: the argv (`-EncodedCommand`, or `-File`
 * for long scripts), and the wrapper that makes the exit code say whether the script failed.
 * @module
 */
import type { ShellArgvOptions, ShellInvocation, ShellScriptFile } from "./posix.ts";

/** PowerShell prelude: UTF-8 output, no progress records (they arrive as CLIXML on stderr). */
const POWERSHELL_PRELUDE =
  "[Console]::OutputEncoding=[Text.Encoding]::UTF8;$OutputEncoding=[Text.Encoding]::UTF8;" +
  "$ProgressPreference='SilentlyContinue';";

const POWERSHELL_FLAGS = ["-NoLogo", "-NoProfile", "-NonInteractive", "-OutputFormat", "Text"];

/** Holds `$?` of the user's last statement; global because merge_stderr runs the script in a child scope. */
const STATUS_VARIABLE = "$global:__shellMcpOk";

/**
 * Exit code rule, applied after the user's script: like bash, its last statement decides. `-Command` alone
 * would do that too, but any statement appended after the script (this one included) would decide instead.
 * A failed native program gives its own code (`$LASTEXITCODE`), a failed cmdlet or expression 1. An
 * earlier failure followed by a success is exit 0, as in bash; `exit N` in the script ends it before this.
 */
const EXIT_RULE = `if (${STATUS_VARIABLE}) { exit 0 }\nif ($LASTEXITCODE) { exit $LASTEXITCODE }\nexit 1`;

/**
 * The whole PowerShell script around `command`: prelude, the command (in a merging block when asked), `$?`
 * taken on the very next statement, and the exit rule. The blank line after the command ends a statement
 * that the user's last line continues with a trailing backtick.
 */
export function powershellScript(command: string, options: ShellArgvOptions = {}): string {
  const captured = `${command}\n\n${STATUS_VARIABLE} = $?`;
  const body = options.mergeStderr ? `& {\n${captured}\n} *>&1` : captured;
  return `${POWERSHELL_PRELUDE}\n${body}\n${EXIT_RULE}`;
}

/** pwsh/powershell argv: the script goes base64 UTF-16LE in `-EncodedCommand`, which avoids all quoting. */
export function powershellInvocation(
  shell: string,
  command: string,
  options: ShellArgvOptions = {},
): ShellInvocation {
  return {
    program: shell,
    args: [...POWERSHELL_FLAGS, "-EncodedCommand", utf16Base64(powershellScript(command, options))],
  };
}

/** The PowerShell script of {@link powershellInvocation} as a `.ps1` file; the BOM makes Windows PowerShell 5.1 read UTF-8. */
export function powershellScriptFile(command: string, options: ShellArgvOptions = {}): ShellScriptFile {
  return { suffix: ".ps1", content: `\ufeff${powershellScript(command, options)}` };
}

/** pwsh/powershell argv for a script file; `Bypass` because the default policy refuses to run `.ps1` files. */
export function powershellFileInvocation(shell: string, path: string): ShellInvocation {
  return {
    program: shell,
    args: [...POWERSHELL_FLAGS, "-ExecutionPolicy", "Bypass", "-File", path],
  };
}

/** Base64 of the UTF-16LE bytes of `text`, as `-EncodedCommand` expects. */
export function utf16Base64(text: string): string {
  const bytes = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    bytes[i * 2] = code & 0xff;
    bytes[i * 2 + 1] = code >> 8;
  }
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}
