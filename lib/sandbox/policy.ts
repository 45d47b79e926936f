/**
 * The policy: from the user's settings (config.ts) and the workspace, the {@link SandboxPlan} every engine
 * enforces. Nothing in the workspace and nothing the model sends decides any of it: the workspace only says
 * where its roots, nested repositories and git remotes are. Paths are resolved to real paths here, before
 * any engine binds them, so a symlink in the workspace never becomes a write path outside it.
 * @module
 */
import { dirname, join } from "node:path";
import { accountHome, platform } from "../platform/mod.ts";
import { ownUid } from "../fs/private_dir.ts";
import type { SandboxConfig } from "./config.ts";
import {
  CACHE_VARIABLES,
  DEFAULT_DOMAINS,
  DENY_READ_IN_HOME,
  DENY_READ_SYSTEM,
  PROTECTED_IN_HOME,
  SOCKET_FOLDERS,
  SOCKET_VARIABLES,
} from "./defaults.ts";
import { globalHooksPaths } from "./git_hooks_path.ts";
import { gitProtectedPaths } from "./git_dirs.ts";
import { gitRemoteHosts } from "./git_remotes.ts";
import { findNested } from "./nested.ts";
import type { NetworkPlan, SandboxPlan } from "./plan.ts";
import { PROTECTED_NAMES } from "./protected.ts";

/** What the policy is built from. */
export interface PolicyInput {
  config: SandboxConfig;
  /** Workspace roots (real paths). */
  roots: readonly string[];
  /** MCP_ALLOW_DIRS folders (real paths). */
  allowDirs: readonly string[];
  /** The server's environment: HOME, PATH and the variables that name host sockets. */
  env: Record<string, string | undefined>;
  /** The user's config folder (`~/.config`): its continue-mcp folder holds tokens and these settings. */
  configDir?: string;
  /** The sandbox's private temp and cache folders (real paths, created). */
  temp: string;
  cache: string;
}

/** The plan, and what the user should hear about it (settings that could not be applied). */
export interface Policy {
  plan: SandboxPlan;
  problems: string[];
}

/** Names under a repository's `.git` that are protected, from the one list. */
const GIT_NAMES = PROTECTED_NAMES.filter((name) => name.path.startsWith(".git/")).map((name) => name.path);

/** Builds the plan. */
export async function buildPolicy(input: PolicyInput): Promise<Policy> {
  const { config, env } = input;
  const problems = [...config.problems];
  const home = await real(env.HOME);
  const roots = unique(input.roots);
  const extra: string[] = [];
  for (const dir of [...input.allowDirs, ...config.write]) {
    const resolved = await real(dir);
    if (resolved) extra.push(resolved);
    else problems.push(`MCP_SANDBOX_WRITE: ignored "${dir}" (no such folder)`);
  }
  const writable = unique([...roots, ...extra]);

  const protectedPaths: string[] = [];
  for (const root of roots) {
    // At a workspace root every protected name counts, existing or not: the engine keeps missing ones from
    // being created (a missing `.git` stays missing: no `git init` makes a repository whose hooks run later).
    // A `.git` pointer file is protected whole: rewritten, it would point git at a folder the job chose.
    const gitIsFile = (await Deno.lstat(join(root, ".git")).catch(() => null))?.isFile ?? false;
    for (const name of PROTECTED_NAMES) {
      if (!(gitIsFile && name.path.startsWith(".git/"))) protectedPaths.push(join(root, name.path));
    }
    if (gitIsFile) protectedPaths.push(join(root, ".git"));
    // What git obeys besides the names: the folders `.git` pointers and `commondir` lead to, hooks moved
    // into the working tree by the repository's `core.hooksPath` or by the user's own configs, included configs.
    protectedPaths.push(...await gitProtectedPaths(root));
    const globals = [
      home && join(home, ".gitconfig"),
      input.configDir && join(input.configDir, "git", "config"),
    ];
    protectedPaths.push(
      ...await globalHooksPaths(root, globals.filter((file): file is string => !!file), home),
    );
  }
  for (const top of writable) {
    const finds = await findNested(top);
    if (finds.truncated) {
      problems.push(`"${top}" is large: nested repositories were looked for near its top only`);
    }
    for (const repo of finds.repositories) {
      protectedPaths.push(...GIT_NAMES.map((name) => join(repo, name)));
    }
    protectedPaths.push(...finds.files);
    if (!roots.includes(top)) {
      for (const name of PROTECTED_NAMES.filter((each) => each.depth === "root")) {
        if (await exists(join(top, name.path))) protectedPaths.push(join(top, name.path));
      }
    }
  }
  if (home && writable.some((dir) => platform.isInside(home, dir))) {
    for (const name of PROTECTED_IN_HOME) protectedPaths.push(join(home, name));
  }
  // A dotfiles repository as the workspace: ~/.bashrc may be a symlink to a file a job can write.
  for (const name of home ? PROTECTED_IN_HOME : []) {
    const target = await real(join(home!, name));
    if (target) protectedPaths.push(target);
  }
  // Programs on PATH that a job could replace in a folder the user opened for writing run outside later.
  for (const dir of (env.PATH ?? "").split(platform.listSeparator)) {
    const resolved = await real(dir);
    if (resolved && extra.some((top) => platform.isInside(resolved, top)) && !roots.includes(resolved)) {
      protectedPaths.push(resolved);
    }
  }

  const denyRead: string[] = [];
  // The home the account database names too: HOME may point elsewhere (a client's, a test's), and the
  // credentials are where the account's own tools wrote them.
  const uid = await ownUid().catch(() => null);
  const accountHomeDir = uid === null ? null : await real(await accountHome(uid) ?? undefined);
  const homes = unique([home, accountHomeDir].filter((dir): dir is string => !!dir));
  const denied = [
    ...homes.flatMap((dir) => DENY_READ_IN_HOME.map((name) => join(dir, name))),
    ...DENY_READ_SYSTEM,
    ...(input.configDir ? [join(input.configDir, "continue-mcp")] : []),
    ...config.denyRead,
  ];
  for (const path of denied) {
    const resolved = await real(path);
    if (resolved) denyRead.push(resolved);
  }

  return {
    plan: {
      writable,
      protectedPaths: unique(protectedPaths).filter((path) =>
        writable.some((dir) => platform.isInside(path, dir))
      ),
      denyRead: unique(denyRead),
      temp: input.temp,
      cache: input.cache,
      network: await networkPlan(config, roots),
      hidden: await hiddenFolders(env, home, writable),
      env: cacheEnv(input.cache, input.temp),
      unsetEnv: SOCKET_VARIABLES,
    },
    problems,
  };
}

/** The network plan: `allow` lists the defaults, the user's domains and the workspace's git remotes. */
async function networkPlan(config: SandboxConfig, roots: readonly string[]): Promise<NetworkPlan> {
  if (config.network !== "allow") return { kind: config.network };
  const remotes = (await Promise.all(roots.map(gitRemoteHosts))).flat();
  const chosen = new Set([...DEFAULT_DOMAINS, ...config.domains]);
  // A cloned repository names its remotes: never a way to the host's loopback, the LAN or cloud metadata.
  const publicOnly = unique(remotes.filter((host) => !chosen.has(host)));
  return { kind: "allow", domains: unique([...chosen, ...publicOnly]), publicOnly };
}

/** Socket folders shown empty: the fixed ones, $XDG_RUNTIME_DIR and the ssh-agent's folder. */
async function hiddenFolders(
  env: Record<string, string | undefined>,
  home: string | undefined,
  writable: readonly string[],
): Promise<string[]> {
  const agent = env.SSH_AUTH_SOCK ? dirname(env.SSH_AUTH_SOCK) : undefined;
  const hidden: string[] = [];
  for (const path of [...SOCKET_FOLDERS, env.XDG_RUNTIME_DIR, agent]) {
    const resolved = await real(path);
    // The temp folder replaces /tmp anyway; a folder holding the home or a writable one cannot be hidden.
    if (!resolved || resolved === "/" || platform.isInside(resolved, "/tmp")) continue;
    if (home && platform.isInside(home, resolved)) continue;
    if (writable.some((dir) => platform.isInside(dir, resolved) || platform.isInside(resolved, dir))) {
      continue;
    }
    hidden.push(resolved);
  }
  return unique(hidden);
}

/** Package managers pointed at the private cache; the job's temp folder. */
function cacheEnv(cache: string, temp: string): Record<string, string> {
  const env: Record<string, string> = { TMPDIR: temp, "npm_config_update_notifier": "false" };
  for (const [name, sub] of Object.entries(CACHE_VARIABLES)) env[name] = join(cache, sub);
  return env;
}

async function real(path: string | undefined): Promise<string | undefined> {
  if (!path || !platform.path.isAbsolute(path)) return undefined;
  try {
    return platform.normalizeReal(await Deno.realPath(path));
  } catch {
    return undefined;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}
