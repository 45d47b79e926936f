/**
 * How a job's shell is started: the script inline in argv, or — past the OS argument limits, or for a
 * multi-line cmd script — from a private temp file that is removed when the shell exits. Either way stdin
 * stays free for shell_input.
 * @module
 */
import { processRules } from "../../lib/platform/mod.ts";
import type { ShellInvocation } from "../../lib/platform/posix.ts";

/** A ready-to-spawn invocation and what to remove after the shell exits. */
export interface Launch {
  invocation: ShellInvocation;
  /** The temp script file, when the command was too long for argv. */
  scriptPath?: string;
  /** Removes the temp script file (if any); safe to call twice. */
  cleanup(): void;
}

/** How a launch is prepared. */
export interface LaunchOptions {
  mergeStderr: boolean;
  /** Where temp scripts go (default the OS temp dir): a sandboxed job's own temp folder. */
  scriptDir?: string;
  /** The path the job sees `scriptDir` at (a sandboxed job sees its temp folder as /tmp). */
  visibleScriptDir?: string;
}

/** Builds the invocation of `command` in `shell`, writing a 0600 temp script when argv would be too long. */
export function prepareLaunch(shell: string, command: string, options: LaunchOptions): Launch {
  const inline = processRules.shellArgv(shell, command, options);
  if (!processRules.needsScriptFile(inline)) return { invocation: inline, cleanup: () => {} };
  const file = processRules.scriptFile(shell, command, options);
  // makeTempFile creates the file with mode 0600 in the OS temp dir: other users cannot read the script.
  const path = Deno.makeTempFileSync({ dir: options.scriptDir, prefix: "shell-mcp-", suffix: file.suffix });
  const { scriptDir, visibleScriptDir } = options;
  const visible = scriptDir && visibleScriptDir ? `${visibleScriptDir}${path.slice(scriptDir.length)}` : path;
  const cleanup = () => {
    try {
      Deno.removeSync(path);
    } catch {
      // Already removed.
    }
  };
  try {
    Deno.writeTextFileSync(path, file.content);
  } catch (error) {
    cleanup();
    throw error;
  }
  return { invocation: processRules.scriptFileArgv(shell, visible, options), scriptPath: path, cleanup };
}
