/** Windows path and process rules as pure functions, testable on any OS. */
import { win32 as path } from "node:path";
import {
  decodedPath,
  EVERY_HOME,
  homeBreadth,
  parseFileUrl,
  type ShellArgvOptions,
  type ShellInvocation,
  shellName,
  type ShellScriptFile,
} from "./posix.ts";
import { powershellFileInvocation, powershellInvocation, powershellScriptFile } from "./powershell.ts";

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
  /**
   * `file:///C:/a%20b` → `C:\a b`; `file://server/share/x` → `\\server\share\x`: on Windows a host names a
   * network share, a path like any other (judged by {@link isNetworkPath} before it is touched). Throws an
   * Error whose message says why a URL is not a file URL.
   */
  fileUrlToPath(url: string): string {
    const parsed = parseFileUrl(url);
    const pathname = decodedPath(parsed);
    if (parsed.hostname) return `\\\\${parsed.hostname}${pathname.replaceAll("/", "\\")}`;
    return pathname.replace(/^\/([a-zA-Z]:)/, "$1").replaceAll("/", "\\");
  },
  /**
   * Whether `path` lies on another machine (`\\server\share\x`, `\\?\UNC\server\share`). Merely opening one
   * sends the user's credentials to that host (SMB), so a path there is checked against the workspace
   * before anything is opened.
   */
  isNetworkPath(path: string): boolean {
    return /^[\\/]{2}(?![?.][\\/])/.test(path) || /^[\\/]{2}\?[\\/]UNC[\\/]/i.test(path);
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
  /**
   * Why `root` (absolute, real) is too broad for a workspace root, or null: a drive (`C:\`), a network
   * share's root, a home folder of `homes`, a folder holding one, or the folder of the user profiles
   * (`C:\Users`, on any drive) whoever runs the server.
   */
  tooBroadRoot(root: string, homes: readonly string[]): string | null {
    const top = path.parse(root).root;
    if (path.relative(top.toLowerCase(), root.toLowerCase()) === "") {
      return top.startsWith("\\\\") ? "is a whole network share" : "is a whole drive";
    }
    const home = homeBreadth(root, homes, windowsPaths.isInside);
    if (home) return home;
    return /^[a-z]:\\users\\?$/i.test(root) ? EVERY_HOME : null;
  },
  /**
   * Deno shows no owners here (`uid` is null) and no ACLs: every entry counts as trusted, as before the
   * POSIX rule existed (see trusted_above.ts).
   */
  foreignOwned(_info: { uid: number | null }, _uid: number | null): boolean {
    return false;
  },
  /** No owners or mode bits to judge by (see {@link foreignOwned}): no folder is refused. */
  othersMayWrite(
    _info: { uid: number | null; gid?: number | null; mode: number | null },
    _uid: number | null,
    _privateGroups?: ReadonlySet<number>,
  ): boolean {
    return false;
  },
  /** Where the lock folder lives: the per-user temp folder, under the profile and ACL'd to its user. */
  lockParent(tmp: string): string {
    return tmp;
  },
  /** The lock folder's name: Windows has no uid; the temp folder is per user already. */
  lockFolderName(_uid: number | null, user: string | undefined): string {
    return `continue-mcp-locks-${(user || "user").replace(/[^A-Za-z0-9_.-]/g, "_")}`;
  },
  /**
   * Deno reports no mode here (`mode` is null); the read-only attribute refuses writes for every user,
   * administrators included, so opening the file for writing is the check.
   */
  isReadOnly(_info: { mode: number | null }): boolean {
    return false;
  },
  /** Suffix of executables. */
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
    if (name === "cmd") return { suffix: ".cmd", content: batchFile(command) };
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
  /**
   * Whether `invocation` must run from a script file: its command line would pass what CreateProcess takes
   * (pwsh's base64 UTF-16 makes that ~12,000 script characters), or, for cmd, pass cmd's own 8,191 limit or
   * hold a line break (`cmd /c` runs only the first line and drops the rest without a word).
   */
  needsScriptFile(invocation: ShellInvocation): boolean {
    const line = windowsCommandLine(invocation);
    if (shellName(invocation.program) !== "cmd") return line.length > WINDOWS_COMMAND_LINE_MAX;
    return line.length > CMD_COMMAND_LINE_MAX || /[\r\n]/.test(line);
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

/** Longest command line CreateProcess takes: 32,767 characters, the terminating NUL included. */
export const WINDOWS_COMMAND_LINE_MAX = 32_766;

/** Longest command cmd.exe runs: its line buffer holds 8,191 characters. */
export const CMD_COMMAND_LINE_MAX = 8_191;

/** One argument as Deno (after libuv) quotes it into a Windows command line (the MSVC argv rules). */
export function quoteWindowsArgument(arg: string): string {
  if (arg === "") return '""';
  if (!/[ \t"]/.test(arg)) return arg;
  if (!/["\\]/.test(arg)) return `"${arg}"`;
  // Backslashes are literal unless they precede a quote: then (and before the closing quote) they double.
  return `"${arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\+)$/, "$1$1")}"`;
}

/** The command line CreateProcess receives for `invocation` (the program quoted too). */
export function windowsCommandLine(invocation: ShellInvocation): string {
  const args = invocation.rawArguments ? invocation.args : invocation.args.map(quoteWindowsArgument);
  return [quoteWindowsArgument(invocation.program), ...args].join(" ");
}

/**
 * A `.cmd` file running `command`: no echo of each line, CRLF line ends (labels and `goto` misbehave with
 * bare LF), and the last command's ERRORLEVEL as the exit code. Batch syntax applies (`%%i` in for loops).
 */
export function batchFile(command: string): string {
  const lines = command.replace(/\r?\n/g, "\r\n");
  return `@echo off\r\n${lines}\r\nexit /b %ERRORLEVEL%\r\n`;
}
