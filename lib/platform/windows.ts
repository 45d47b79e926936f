/** Windows path and process rules as pure functions, testable on any OS. */
import { win32 as path } from "node:path";
import {
  powershellFileInvocation,
  powershellInvocation,
  powershellScriptFile,
  type ShellArgvOptions,
  type ShellInvocation,
  shellName,
  type ShellScriptFile,
} from "./posix.ts";

/** The path rules of Windows: drive letters, UNC shares, case-insensitive names, `\` separators. */
export const windowsPaths = {
  path,
  /** Separator of path lists such as `MCP_WORKSPACE` (`:` is part of drive letters). */
  listSeparator: ";",
  /** Whether `child` is `parent` or lies under it, ignoring case as NTFS does. */
  isInside(child: string, parent: string): boolean {
    const relative = path.relative(parent.toLowerCase(), child.toLowerCase());
    return relative === "" ||
      (relative !== ".." && !relative.startsWith(`..\\`) && !path.isAbsolute(relative));
  },
  /** `file:///C:/a%20b` → `C:\a b`; `file://server/share/x` → `\\server\share\x`. */
  fileUrlToPath(url: string): string {
    const parsed = new URL(url);
    if (parsed.protocol !== "file:") throw new Error(`Not a file URL: ${url}`);
    const pathname = decodeURIComponent(parsed.pathname);
    if (parsed.hostname) return `\\\\${parsed.hostname}${pathname.replaceAll("/", "\\")}`;
    return pathname.replace(/^\/([a-zA-Z]:)/, "$1").replaceAll("/", "\\");
  },
  /** `\\?\C:\x` → `C:\x`: verbatim prefixes break comparisons and most tools. */
  normalizeReal(real: string): string {
    if (real.startsWith("\\\\?\\UNC\\")) return `\\\\${real.slice(8)}`;
    return real.startsWith("\\\\?\\") ? real.slice(4) : real;
  },
  /**
   * Whether `path` names a Windows device rather than a file: `CON`, `NUL`, `COM1`, `LPT1.txt` (the
   * extension does not help) in any folder, or the `\\.\` device namespace. Opening one blocks or never ends.
   */
  isDevicePath(path: string): boolean {
    if (/^[\\/]{2}[.?][\\/]/.test(path) && !/^[\\/]{2}\?[\\/]([a-zA-Z]:|UNC[\\/])/i.test(path)) return true;
    const base = path.split(/[\\/]/).pop() ?? "";
    return /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])(\.[^.]*)?[. ]*$/i.test(base);
  },
  /** Suffix of executables. */
  /**
   * Deno reports no mode here (`mode` is null); the read-only attribute refuses writes for every user,
   * administrators included, so opening the file for writing is the check.
   */
  isReadOnly(_info: { mode: number | null }): boolean {
    return false;
  },
  exeSuffix: ".exe",
  /** Signals that ask a server to shut down (Windows has no SIGTERM listener). */
  shutdownSignals: ["SIGINT", "SIGBREAK"] as Deno.Signal[],
};

/** Windows process rules as pure functions. */
export const windowsProcess = {
  /** Default shell preference. */
  defaultShells: ["pwsh", "powershell"] as string[],
  /** Windows has no process groups to signal; trees are killed with taskkill /T instead. */
  detached: false,
  /** Windows has no SIGTERM for other processes: the first step is already forced. */
  gentleSignal: "SIGKILL" as Deno.Signal,
  /** The argv that runs `command` as one script string in `shell` (a name or a path). */
  shellArgv(shell: string, command: string, options: ShellArgvOptions = {}): ShellInvocation {
    const name = shellName(shell);
    if (name === "pwsh" || name === "powershell") return powershellInvocation(shell, command, options);
    if (name === "cmd") {
      const script = options.mergeStderr ? `(${command}) 2>&1` : command;
      // `/s /c "<script>"`: cmd strips exactly the outer quotes and runs the rest verbatim.
      return { program: shell, args: ["/d", "/s", "/c", `"${script}"`], rawArguments: true };
    }
    const script = options.mergeStderr ? `exec 2>&1\n${command}` : command;
    return { program: shell, args: ["-c", script] };
  },
  /** The script file that runs `command` in `shell` when the inline argv is too long. */
  scriptFile(shell: string, command: string, options: ShellArgvOptions = {}): ShellScriptFile {
    const name = shellName(shell);
    if (name === "pwsh" || name === "powershell") return powershellScriptFile(command, options);
    // A batch file echoes each command unless told not to; batch syntax applies (`%%i` in for loops).
    if (name === "cmd") return { suffix: ".cmd", content: `@echo off\r\n${command}\r\n` };
    return { suffix: ".sh", content: options.mergeStderr ? `exec 2>&1\n${command}` : command };
  },
  /** The argv that runs the script file at `path` (written from `scriptFile`) in `shell`. */
  scriptFileArgv(shell: string, path: string, options: ShellArgvOptions = {}): ShellInvocation {
    const name = shellName(shell);
    if (name === "pwsh" || name === "powershell") return powershellFileInvocation(shell, path);
    if (name === "cmd") {
      const script = options.mergeStderr ? `"${path}" 2>&1` : `"${path}"`;
      return { program: shell, args: ["/d", "/s", "/c", `"${script}"`], rawArguments: true };
    }
    return { program: shell, args: [path] };
  },
  /** The command that kills `pid` and every descendant still linked to it; `/F` because console apps ignore WM_CLOSE. */
  treeKillArgv(pid: number): string[] | null {
    return ["taskkill", "/T", "/F", "/PID", String(pid)];
  },
  /** No intermediate parent on Windows: the shell is the server's child (see docs/servers/shell.md). */
  jobParent(invocation: ShellInvocation): ShellInvocation {
    return invocation;
  },
  /** No watchdog on Windows yet (a Job Object would be the tool): jobs are killed by the server's cleanup. */
  watchdogArgv(_markerPattern: string): string[] | null {
    return null;
  },
};
