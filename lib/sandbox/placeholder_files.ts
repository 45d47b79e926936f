/**
 * The file work of placeholders (placeholders.ts): making them, recording and removing them, and waiting
 * for a lock file. Sync calls where they are a handful of quick system calls.
 * @module
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** Others hold `use` exclusively or `record` only for a moment: waiting longer means something is wrong. */
const LOCK_WAIT_MS = 5000;
const POLL_MS = 5;

/**
 * The content of a placeholder that must be a file, or undefined for a folder: git fails on a `.git/config`
 * (or `config.worktree`, `commondir`) that is a folder, reads an empty config as none, and a `commondir` of
 * `.` as itself.
 */
export function placeholderFile(path: string): string | undefined {
  const parts = path.split("/");
  if (parts.at(-2) !== ".git") return undefined;
  return ({ config: "", "config.worktree": "", commondir: ".\n" } as Record<string, string>)[parts.at(-1)!];
}

export async function waitLock(file: Deno.FsFile, exclusive: boolean, what: string): Promise<void> {
  const deadline = performance.now() + LOCK_WAIT_MS;
  while (!await file.tryLock(exclusive)) {
    if (performance.now() > deadline) throw new Error(`the placeholder lock of "${what}" stays taken`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Makes the missing ones (a folder, or a file with its content); returns `path\tdev:ino` of each made. */
export function makeMissing(paths: readonly string[]): string[] {
  const made: string[] = [];
  for (const path of paths) {
    const content = placeholderFile(path);
    try {
      if (content === undefined) Deno.mkdirSync(path);
      else Deno.writeTextFileSync(path, content, { createNew: true });
    } catch (error) {
      if (error instanceof Deno.errors.AlreadyExists) continue;
      throw error;
    }
    const info = Deno.lstatSync(path);
    made.push(`${path}\t${info.dev}:${info.ino}`);
  }
  return made;
}

/** Removes each recorded placeholder that is still the empty folder (or the file as written) it was. */
export function removeUnchanged(lines: readonly string[]): void {
  for (const line of lines) {
    const [path, identity] = line.split("\t");
    try {
      const info = Deno.lstatSync(path);
      if (`${info.dev}:${info.ino}` !== identity) continue;
      const content = placeholderFile(path);
      if (content === undefined ? !info.isDirectory : Deno.readTextFileSync(path) !== content) continue;
      // Not recursive: a folder someone put something in is theirs now.
      Deno.removeSync(path);
    } catch {
      // Gone, changed or not empty: not ours to remove.
    }
  }
}

export async function appendRecord(file: Deno.FsFile, lines: readonly string[]): Promise<void> {
  const bytes = encoder.encode(lines.map((line) => `${line}\n`).join(""));
  await file.seek(0, Deno.SeekMode.End);
  let written = 0;
  while (written < bytes.length) written += await file.write(bytes.subarray(written));
}

export async function readRecord(file: Deno.FsFile): Promise<string[]> {
  await file.seek(0, Deno.SeekMode.Start);
  const chunks: Uint8Array[] = [];
  const buffer = new Uint8Array(16 * 1024);
  for (let read = await file.read(buffer); read !== null; read = await file.read(buffer)) {
    chunks.push(buffer.slice(0, read));
  }
  const text = decoder.decode(new Uint8Array(chunks.flatMap((chunk) => [...chunk])));
  return text.split("\n").filter((line) => line.includes("\t"));
}
