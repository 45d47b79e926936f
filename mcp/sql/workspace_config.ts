/**
 * Which config a run uses: the workspace root's own `.sqruff` / `.sqlfluff`, read only if it is a regular
 * file inside the workspace and vetted (`vet_config.ts`), else the house style.
 * @module
 */
import { isAbsolute, join, relative, sep } from "node:path";
import { ToolError } from "../../lib/mcp/errors.ts";
import type { Backend } from "./backend.ts";
import { type ChosenConfig, houseConfigFile, workspaceConfigNames } from "./config.ts";
import { vetConfig } from "./vet_config.ts";

/** Far above any real config (sqlfluff's own full default config is ~12 KB). */
const MAX_CONFIG_BYTES = 256 * 1024;

/** The workspace root's own config, vetted, when it has one; else the house style. */
export async function chooseConfig(
  backend: Backend,
  workspaceRoot: string,
  options: { action: string },
): Promise<ChosenConfig> {
  for (const name of workspaceConfigNames(backend)) {
    const text = await readWorkspaceConfig(workspaceRoot, name, options.action);
    if (text === null) continue;
    return {
      text: vetConfig(text, { file: name, kind: backend.kind, action: options.action }),
      label: `${name} (workspace)`,
      workspace: true,
    };
  }
  return { text: await Deno.readTextFile(houseConfigFile(backend)), label: "house style", workspace: false };
}

/**
 * The text of `root/name`, or null when there is none (or it cannot be read). A link out of the
 * workspace, something that is not a regular file (`/dev/zero`, a pipe) or a huge file is an error: a
 * cloned repository must not make the server read outside it or hang.
 */
async function readWorkspaceConfig(root: string, name: string, action: string): Promise<string | null> {
  let real: string;
  let realRoot: string;
  try {
    [real, realRoot] = await Promise.all([Deno.realPath(join(root, name)), Deno.realPath(root)]);
  } catch {
    return null; // Not there, or a dangling link: try the next name, then the house style.
  }
  const inside = relative(realRoot, real);
  if (inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    throw new ToolError(
      "outside_workspace",
      `${action}: cannot use ${name}: it links to a file outside the workspace; replace the link with a file`,
    );
  }
  const info = await Deno.stat(real).catch(() => null);
  if (info === null || info.isDirectory) return null;
  if (!info.isFile) {
    throw new ToolError(
      "invalid_argument",
      `${action}: cannot use ${name}: it is not a regular file (a pipe, socket or device)`,
    );
  }
  if (info.size > MAX_CONFIG_BYTES) {
    throw new ToolError(
      "too_large",
      `${action}: cannot use ${name}: ${info.size} bytes, over the ${
        MAX_CONFIG_BYTES / 1024
      } KB a config may have`,
    );
  }
  try {
    return new TextDecoder().decode(await Deno.readFile(real));
  } catch {
    return null;
  }
}
