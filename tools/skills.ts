/**
 * Skills (`skills/<name>/SKILL.md`, the format Claude Code and other agents read) shipped as Continue rules
 * (`continue/rules/<name>.md`, which `deno task install` copies into a workspace): `deno task sync` writes
 * the rule from the skill, so the two cannot drift apart.
 * @module
 */
import { join } from "node:path";
import { REPO_ROOT } from "./catalog.ts";

/** The skills shipped as rules. */
export const SKILLS = ["new-mcp-tool"];

/** The skill's front matter fields and body. */
export function parseSkill(text: string): { name: string; description: string; body: string } {
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text.replaceAll("\r\n", "\n"));
  if (!match) throw new Error("SKILL.md lacks its --- front matter ---");
  const field = (key: string) => new RegExp(`^${key}: (.+)$`, "m").exec(match[1])?.[1].trim() ?? "";
  return { name: field("name"), description: field("description"), body: match[2] };
}

/**
 * The Continue rule for a skill: no globs and `alwaysApply: false`, so the agent pulls it in by its
 * description when a task calls for it instead of paying for it on every request.
 */
export function ruleFromSkill(text: string): string {
  const skill = parseSkill(text);
  return [
    "---",
    `name: ${skill.name}`,
    `description: ${skill.description}`,
    "alwaysApply: false",
    "---",
    "",
    `<!-- Generated from skills/${skill.name}/SKILL.md by \`deno task sync\`: edit that file. -->`,
    skill.body,
  ].join("\n");
}

/** Rewrites `continue/rules/<skill>.md` from each skill. */
export async function writeSkillRules(root = REPO_ROOT): Promise<void> {
  for (const name of SKILLS) {
    const skill = await Deno.readTextFile(join(root, "skills", name, "SKILL.md"));
    await Deno.writeTextFile(join(root, "continue", "rules", `${name}.md`), ruleFromSkill(skill));
  }
}
