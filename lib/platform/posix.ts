/** POSIX (Linux, macOS) path and process rules as pure functions, testable on any OS. */
import { posix as path } from "node:path";
import { powershellFileInvocation, powershellInvocation, powershellScriptFile } from "./powershell.ts";
import { WATCHDOG_SCRIPT } from "./watchdog_script.ts";

/** Why the folder of all users' home folders is no workspace root (both OS rule sets). */
export const EVERY_HOME = "holds every user's home folder";

/** The path rules of POSIX systems. */
export const posixPaths = {
  path,
  /** Separator of path lists such as `MCP_WORKSPACE`. */
  listSeparator: ":",
  /** Whether `child` is `parent` or lies under it (both absolute and normalised). */
  isInside(child: string, parent: string): boolean {
    const relative = path.relative(parent, child);
    return relative === "" ||
      (relative !== ".." && !relative.startsWith(`../`) && !path.isAbsolute(relative));
  },
  /**
   * `file:///home/a%20b` → `/home/a b`. A URL naming another machine (`file://host/x`; `localhost` is this
   * one) is refused: the host would otherwise be dropped and `/x` read here. Throws an Error whose message
   * says why (`names the host "host", not this machine`).
   */
  fileUrlToPath(url: string): string {
    const parsed = parseFileUrl(url);
    if (parsed.hostname) throw new Error(`names the host "${parsed.hostname}", not this machine`);
    return decodedPath(parsed);
  },
  /** Paths on another machine (Windows' `\\server\share`) do not exist here. */
  isNetworkPath(_path: string): boolean {
    return false;
  },
  /** Canonical form of a path returned by `Deno.realPath`. */
  normalizeReal(real: string): string {
    return real;
  },
  /** Windows device names are ordinary file names here (FIFOs and devices are refused by the tools). */
  isDevicePath(_path: string): boolean {
    return false;
  },
  /**
   * Whether a file's mode bits say nobody may write it. Root's writes succeed anyway, so tools that honour
   * a read-only file check this rather than relying on the OS to refuse.
   */
  isReadOnly(info: { mode: number | null }): boolean {
    return info.mode !== null && (info.mode & 0o222) === 0;
  },
  /**
   * Why `root` (absolute, real) is too broad for a workspace root, or null: the whole file system, a home
   * folder of `homes`, a folder holding one, or the folder of every user's home (`/home`, macOS' `/Users`)
   * whoever runs the server (root's home is /root), since a root there exposes every secret under it.
   */
  tooBroadRoot(root: string, homes: readonly string[]): string | null {
    if (path.dirname(root) === root) return "is the whole file system";
    const home = homeBreadth(root, homes, posixPaths.isInside);
    if (home) return home;
    // Any case: macOS volumes mostly ignore it, and a Linux `/users` is no project folder either.
    return ["/home", "/users"].includes(root.toLowerCase()) ? EVERY_HOME : null;
  },
  /**
   * Whether a user other than `uid` and root may have made the entry `info` (a `.git`, an ignore file):
   * it belongs to someone else. `uid` null (unknown): only root's entries are trusted.
   */
  foreignOwned(info: { uid: number | null }, uid: number | null): boolean {
    return info.uid !== 0 && info.uid !== uid;
  },
  /**
   * Whether a user other than `uid` and root may have put entries in the folder `info`: it belongs to
   * someone else, or its mode lets others write, sticky or not (others add their own entries to /tmp), or
   * lets a group write that is not this user's alone (`privateGroups`). A lookup above the workspace stops at such a folder (trusted_above.ts).
   */
  othersMayWrite(
    info: { uid: number | null; gid?: number | null; mode: number | null },
    uid: number | null,
    privateGroups: ReadonlySet<number> = new Set(),
  ): boolean {
    if (posixPaths.foreignOwned(info, uid) || info.mode === null || (info.mode & 0o002) !== 0) return true;
    // Group-writable is fine when the group is this user's alone (a user private group, umask 002).
    return (info.mode & 0o020) !== 0 && !(typeof info.gid === "number" && privateGroups.has(info.gid));
  },
  /** Where the lock folder lives: a fixed `/tmp`, never TMPDIR, which differs between processes of one user. */
  lockParent(_tmp: string): string {
    return "/tmp";
  },
  /** The lock folder's name: by uid, since USER may be unset or differ between processes of one user. */
  lockFolderName(uid: number | null, _user: string | undefined): string {
    if (uid === null) throw new Error("no uid to name the lock folder by");
    return `continue-mcp-locks-${uid}`;
  },
  /** Suffix of executables. */
  exeSuffix: "",
  /** Signals that ask a server to shut down. */
  shutdownSignals: ["SIGINT", "SIGTERM"] as Deno.Signal[],
};

/** How to start a program: its argv, and whether Windows must pass the arguments verbatim. */
export interface ShellInvocation {
  program: string;
  args: string[];
  /** Windows only: hand `args` to the program unquoted (`cmd /s /c "..."` needs this). */
  rawArguments?: boolean;
}

/** Options of `shellArgv`. */
export interface ShellArgvOptions {
  /** Send stderr into stdout inside the shell, so their order is exact. */
  mergeStderr?: boolean;
}

/** POSIX process rules as pure functions. */
export const posixProcess = {
  /** Default shell preference. */
  defaultShells: ["bash", "sh"] as string[],
  /** Jobs run in their own session so the whole tree can be signalled as one process group. */
  detached: true,
  /** The first signal of a tree kill; SIGKILL follows after a grace. */
  gentleSignal: "SIGTERM" as Deno.Signal,
  /** The argv that runs `command` as one script string in `shell` (a name or a path). */
  shellArgv(shell: string, command: string, options: ShellArgvOptions = {}): ShellInvocation {
    const name = shellName(shell);
    if (name === "pwsh" || name === "powershell") return powershellInvocation(shell, command, options);
    // `exec 2>&1` on its own line keeps the user's script untouched (heredocs, trailing comments).
    const script = options.mergeStderr ? `exec 2>&1\n${command}` : command;
    return { program: shell, args: ["-c", script] };
  },
  /** The script file that runs `command` in `shell` when the inline argv is too long (see {@link tooLongToInline}). */
  scriptFile(shell: string, command: string, options: ShellArgvOptions = {}): ShellScriptFile {
    const name = shellName(shell);
    if (name === "pwsh" || name === "powershell") return powershellScriptFile(command, options);
    return { suffix: ".sh", content: options.mergeStderr ? `exec 2>&1\n${command}` : command };
  },
  /** The argv that runs the script file at `path` (written from {@link scriptFile}) in `shell`. */
  scriptFileArgv(shell: string, path: string, _options: ShellArgvOptions = {}): ShellInvocation {
    const name = shellName(shell);
    if (name === "pwsh" || name === "powershell") return powershellFileInvocation(shell, path);
    // Read from a file, the script leaves stdin to the job (shell_input), unlike `bash -s`.
    return { program: shell, args: [path] };
  },
  /** Whether `invocation` must run from a script file instead (see {@link tooLongToInline}). */
  needsScriptFile(invocation: ShellInvocation): boolean {
    return tooLongToInline(invocation);
  },
  /** POSIX kills a tree by signalling its process group, so no helper command is needed. */
  treeKillArgv(_pid: number): string[] | null {
    return null;
  },
  /**
   * Runs a job's shell under a plain `sh` that stays its parent, started with the job's environment only: a
   * job reading `/proc/$PPID/environ` then finds its own variables, not the server's.
   */
  jobParent(invocation: ShellInvocation): ShellInvocation {
    // `"$@"` is not the last command, so no sh replaces itself with it (exec) and stops being the parent.
    const args = ["-c", '"$@"\nexit $?', "shell-mcp-job", invocation.program, ...invocation.args];
    return { program: POSIX_SH, args };
  },
  /** The watchdog (see watchdog_script.ts): `/bin/sh` reading group and orphan lines from its parent. */
  watchdogArgv(markerPattern: string): string[] | null {
    return [POSIX_SH, "-c", WATCHDOG_SCRIPT, "shell-mcp-watchdog", markerPattern];
  },
};

/** Why `root` is too broad because of a home folder in `homes`, or null (shared by both OS rule sets). */
export function homeBreadth(
  root: string,
  homes: readonly string[],
  isInside: (child: string, parent: string) => boolean,
): string | null {
  for (const home of homes) {
    if (!isInside(home, root)) continue;
    return isInside(root, home) ? "is your home folder" : "holds your home folder";
  }
  return null;
}

/** `url` parsed, if it is a file URL; else an Error whose message says what it is not. */
export function parseFileUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error("is not a valid URL");
  }
  // WHATWG URLs drop a `localhost` host of a file URL: `file://localhost/x` has none.
  if (parsed.protocol !== "file:") throw new Error("is not a file URL");
  return parsed;
}

/** The decoded path of a parsed URL; an Error for a `%` escape that decodes to nothing. */
export function decodedPath(parsed: URL): string {
  try {
    return decodeURIComponent(parsed.pathname);
  } catch {
    throw new Error("is not a valid URL");
  }
}

/** Every POSIX system has it; the job's parent and the watchdog need nothing more. */
const POSIX_SH = "/bin/sh";

/** A script to write to a temp file: its name suffix and content. */
export interface ShellScriptFile {
  suffix: string;
  content: string;
}

/**
 * Characters of argv beyond which a script goes through a temp file. Linux refuses any one argument over
 * 128 KiB (MAX_ARG_STRLEN, "Argument list too long"); Windows has its own rule (`windowsProcess`).
 */
export const MAX_INLINE_SCRIPT_CHARS = 32 * 1024;

/** Whether an invocation's arguments are too long to pass on the command line. */
export function tooLongToInline(invocation: ShellInvocation): boolean {
  return invocation.args.reduce((n, arg) => n + arg.length + 1, 0) > MAX_INLINE_SCRIPT_CHARS;
}

/** `C:\x\pwsh.exe` or `/usr/bin/pwsh` → `pwsh`. */
export function shellName(shell: string): string {
  return shell.split(/[\\/]/).pop()!.replace(/\.exe$/i, "").toLowerCase();
}
