/**
 * What the agent is told when the sandbox refused something: the command fails as it normally would, and
 * one short line names the sandbox and the path or host, so the agent can tell it from a bug and tell the
 * user what to allow. Found by reading the job's error output for what the kernel says to a refused write
 * (read-only file system, busy mount point, cross-device link), read (permission denied on a denied path)
 * or connection (no DNS, no route) and classifying the path by the plan.
 * @module
 */
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { platform } from "../platform/mod.ts";
import { protectedReason } from "./protected.ts";
import type { SandboxPlan } from "./plan.ts";

/** Errors that mean a write was refused, and one that means a read was. */
const WRITE_ERRORS =
  /Read-only file system|EROFS|Errno 30|Device or resource busy|EBUSY|Invalid cross-device link|EXDEV|Is a directory/i;
const READ_ERRORS = /Permission denied|EACCES|Errno 13/i;
const CROSS_DEVICE = /Invalid cross-device link|EXDEV/i;
const NETWORK_ERRORS = [
  /Could not resolve host:?\s+([\w.-]+)/i,
  /getaddrinfo \w+ ([\w.-]+)/i,
  /Failed to resolve '([\w.-]+)'/i,
  /Failed to connect to ([\w.-]+) port/i,
  /HTTPSConnectionPool\(host='([\w.-]+)'/i,
  /unable to access '[a-z]+:\/\/([\w.-]+)/i,
  /\/dev\/(?:tcp|udp)\/([\w.-]+)\/\d+/i,
  /(Temporary failure in name resolution|Network is unreachable|Name or service not known)/i,
];
/** `path: Read-only file system` (bash, cat), then quoted paths (', ‘’, "), as coreutils and Python quote. */
const BEFORE_ERROR = new RegExp(
  `(?:['"‘“]([^'"’”\\n]+)['"’”]|([^\\s'"‘’“”:]+)):\\s*(?:${WRITE_ERRORS.source}|${READ_ERRORS.source})`,
  "gi",
);
const QUOTED = /['"‘“]([^'"’”\n]+)['"’”]/g;

/** Where the sandbox names its settings in what the agent reads. */
const HINT_WRITE = "the user can allow folders with MCP_SANDBOX_WRITE";

/** The one line explaining the first refusal in `output` (a job's error output), or undefined. */
export function explainRefusal(
  output: string,
  plan: SandboxPlan,
  options: { cwd: string; networkNote?: string },
): string | undefined {
  for (const line of output.split("\n").slice(0, 2000)) {
    if (line.length > 2000) continue;
    const network = NETWORK_ERRORS.map((pattern) => pattern.exec(line)).find(Boolean);
    if (network && plan.network.kind !== "on") {
      const host = /\s/.test(network[1]) ? "the network" : `"${network[1]}"`;
      const why = options.networkNote
        ? `network off: ${options.networkNote}`
        : `network ${plan.network.kind === "allow" ? "allow-list" : plan.network.kind}`;
      return `[sandbox] refused a connection to ${host} (${why}); the user can allow it with ` +
        (plan.network.kind === "allow" && !options.networkNote
          ? "MCP_SANDBOX_DOMAINS"
          : "MCP_SANDBOX_NETWORK=on");
    }
    const write = WRITE_ERRORS.test(line);
    const read = !write && READ_ERRORS.test(line);
    if (!write && !read) continue;
    for (const candidate of pathsIn(line)) {
      const path = realLocation(isAbsolute(candidate) ? candidate : resolve(options.cwd, candidate));
      const note = write ? writeRefusal(path, plan, CROSS_DEVICE.test(line)) : readRefusal(path, plan);
      if (note) return note;
    }
  }
  return undefined;
}

function writeRefusal(path: string, plan: SandboxPlan, link: boolean): string | undefined {
  const shown = JSON.stringify(path);
  if (plan.denyRead.some((denied) => platform.isInside(path, denied))) {
    return `[sandbox] refused a write to ${shown} (credentials are hidden from jobs)`;
  }
  // The job's /tmp is its temp folder: a refusal under /tmp is a path kept read-only there.
  const top = plan.writable.find((dir) => platform.isInside(path, dir)) ??
    (platform.isInside(path, plan.cache) ? plan.cache : undefined);
  if (!top) {
    return `[sandbox] refused ${link ? "a hard link to" : "a write to"} ${shown} (outside the workspace); ` +
      HINT_WRITE;
  }
  // A folder holding protected names (`.git`, a nested repository) is pinned: it cannot be moved away.
  if (plan.protectedPaths.some((each) => platform.isInside(each, path) && each !== path)) {
    return `[sandbox] refused moving ${shown}: it holds protected names (git hooks and config)`;
  }
  // Inside the workspace only protected names are read-only: `".git/hooks" is protected (git runs hooks)`
  // → `protected: git runs hooks`; below a missing `.git` (no new repository there) git's own files.
  const relative = path.slice(top.length).replace(/^\//, "");
  const why = protectedReason(relative)?.replace(/^.* is protected \((.*)\)$/, "protected: $1") ??
    (relative.split("/")[0] === ".git" ? "protected: git's config and hooks" : "protected");
  return `[sandbox] refused a write to ${shown} (${why})`;
}

function readRefusal(path: string, plan: SandboxPlan): string | undefined {
  if (!plan.denyRead.some((denied) => platform.isInside(path, denied))) return undefined;
  return `[sandbox] refused a read of ${JSON.stringify(path)} (credentials are hidden from jobs)`;
}

/**
 * Where `path` really is: its folder with symlinks resolved (a link in the workspace that points outside is
 * a write outside). The file itself may not exist: the write was refused.
 */
function realLocation(path: string): string {
  try {
    return join(Deno.realPathSync(dirname(path)), basename(path));
  } catch {
    return path;
  }
}

/** Path-like strings in an error line: the one right before the error, else the quoted ones. */
function pathsIn(line: string): string[] {
  const isPath = (text: string) => text.includes("/") || text.startsWith(".");
  const named = [...line.matchAll(BEFORE_ERROR)].map((match) => match[1] ?? match[2]).filter(isPath);
  // `cannot copy 'a' to 'b': …` names b as the failure: other quoted paths only when none is right there.
  const quoted = [...line.matchAll(QUOTED)].map((match) => match[1]).filter(isPath);
  // A busy mount point is the source of a move (`mv '.git' '.git-old'`): every quoted path counts, in order.
  if (/busy/i.test(line)) return quoted.length ? quoted : named;
  return named.length ? named : quoted;
}
