/** The victim's workspace and the attacker's plants of the planted-above tests, shared by search and fs. */
import type { SharedFolder } from "../../_support/shared_folder.ts";

/** The victim's files: `.gitignore` hides `*.log`, so the workspace's own rules are seen to still apply. */
export const VICTIM = {
  ".gitignore": "*.log\n",
  "a.ts": "needle\n",
  "b.log": "needle\n",
  "src/c.ts": "needle\n",
  "src/d.log": "needle\n",
};

/** Plants what the attacker puts above the workspace: ignore files of `*` and, with `git`, a `.git`. */
export async function plantAbove(box: SharedFolder, options: { git: boolean }): Promise<void> {
  for (const name of [".ignore", ".gitignore", ".rgignore"]) await box.plant(name, "*\n");
  if (options.git) await box.plant(".git/");
}
