/**
 * Extended attributes for tests (Deno has no API for them): `setfattr`/`getfattr` from Debian's `attr`
 * package when present, else Python's os.setxattr/os.getxattr. `xattrTool` is null where neither works
 * (not Linux, or the file system refuses user attributes): tests that need one are then skipped.
 */
import { os } from "../../lib/platform/mod.ts";

/** How the helpers reach the attributes, or null. */
export const xattrTool: "attr" | "python" | null = await probe();

/** Sets the attribute `name` (e.g. `user.origin`) of `path` to `value`. */
export async function setXattr(path: string, name: string, value: string): Promise<void> {
  if (xattrTool === "attr") await run("setfattr", ["-n", name, "-v", value, path]);
  else {await run("python3", [
      "-c",
      "import os,sys; os.setxattr(sys.argv[1], sys.argv[2], sys.argv[3].encode())",
      path,
      name,
      value,
    ]);}
}

/** The attribute's value, or null when the file does not have it. */
export async function getXattr(path: string, name: string): Promise<string | null> {
  const script = "import os,sys\ntry: sys.stdout.write(os.getxattr(sys.argv[1], sys.argv[2]).decode())\n" +
    "except OSError: sys.exit(3)";
  const [command, args] = xattrTool === "attr"
    ? ["getfattr", ["--only-values", "-n", name, path]]
    : ["python3", ["-c", script, path, name]];
  const output = await new Deno.Command(command, { args, stdout: "piped", stderr: "null" }).output();
  return output.success ? new TextDecoder().decode(output.stdout) : null;
}

async function run(command: string, args: string[]): Promise<void> {
  const output = await new Deno.Command(command, { args, stdout: "null", stderr: "piped" }).output();
  if (!output.success) throw new Error(`${command} failed: ${new TextDecoder().decode(output.stderr)}`);
}

async function probe(): Promise<"attr" | "python" | null> {
  if (os !== "linux") return null;
  const dir = await Deno.makeTempDir({ prefix: "continue-mcp-xattr-" });
  try {
    const file = `${dir}/probe`;
    await Deno.writeTextFile(file, "x");
    for (const tool of ["attr", "python"] as const) {
      try {
        await (tool === "attr"
          ? run("setfattr", ["-n", "user.probe", "-v", "1", file])
          : run("python3", ["-c", "import os,sys; os.setxattr(sys.argv[1], 'user.probe', b'1')", file]));
        return tool;
      } catch {
        // Not installed, or the file system refuses user attributes: try the next way.
      }
    }
    return null;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
