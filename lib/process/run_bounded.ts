/**
 * Runs a command to its end and collects its output, bounded in time: the command runs in its own process
 * group (POSIX) so a timeout or an abort kills its whole tree, and pipes still held by something outside
 * that reach are abandoned after a short grace, so the call always returns.
 * @module
 */
import { ownProcessTree, processRules } from "../platform/mod.ts";
import { type Drain, drainStream } from "./drain.ts";
import { killTree } from "./tree_kill.ts";
import { adoption } from "./adoption.ts";

/** How to run the command. */
export interface BoundedRunOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** Start from an empty environment plus `env`. */
  clearEnv?: boolean;
  /** The whole tree is killed when this passes (→ `stopped: "timeout"`). */
  timeoutMs: number;
  /** Aborting kills the whole tree (→ `stopped: "aborted"`). */
  signal?: AbortSignal;
  /** After the command ended, how long output still in the pipes may take to arrive. Default 200. */
  drainGraceMs?: number;
}

/** What the command printed and how it ended. */
export interface BoundedRunResult {
  /** Exit code (as Deno reports it, also when a signal ended the command). */
  code: number;
  stdout: Uint8Array;
  stderr: Uint8Array;
  /** Set when the run was cut short. */
  stopped?: "timeout" | "aborted";
  /** The pipes were still held after the grace (by a process out of reach): output may be incomplete. */
  abandonedPipes: boolean;
}

const DEFAULT_DRAIN_GRACE_MS = 200;

/** Runs `program args`; throws only when it cannot be started (the spawn error). */
export async function runBounded(
  program: string,
  args: string[],
  options: BoundedRunOptions,
): Promise<BoundedRunResult> {
  const child = new Deno.Command(program, {
    args,
    cwd: options.cwd,
    env: options.env,
    clearEnv: options.clearEnv,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    detached: processRules.detached,
  }).spawn();
  const owned = ownProcessTree(child.pid);
  // Deno reaps it: where this process adopts orphans, it must not take it for one.
  const disown = adoption.own(child.pid);
  let exited = false;
  const chunks = { stdout: [] as Uint8Array[], stderr: [] as Uint8Array[] };
  // The drain reuses its buffer: keep copies.
  const drains: Drain[] = [
    drainStream(child.stdout, (bytes) => chunks.stdout.push(bytes.slice())),
    drainStream(child.stderr, (bytes) => chunks.stderr.push(bytes.slice())),
  ];
  let stopped: BoundedRunResult["stopped"];
  let killing: Promise<void> | undefined;
  const killAll = () => killing ??= killTree(child.pid, { signal: "SIGKILL", owned, rootRunning: !exited });
  const stop = (reason: "timeout" | "aborted") => {
    stopped ??= reason;
    killAll();
  };
  const timer = setTimeout(() => stop("timeout"), options.timeoutMs);
  const onAbort = () => stop("aborted");
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  let status: Deno.CommandStatus;
  try {
    status = await child.status;
    exited = true;
  } finally {
    disown();
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
  const drained = await settlesWithin(
    Promise.all(drains.map((drain) => drain.done)),
    options.drainGraceMs ?? DEFAULT_DRAIN_GRACE_MS,
  );
  // Pipes still open after the grace: something the command started holds them; end it, then stop reading.
  if (!drained) killAll();
  await killing;
  owned?.close();
  await Promise.all(drains.map((drain) => drain.cancel()));
  return {
    code: status.code,
    stdout: concat(chunks.stdout),
    stderr: concat(chunks.stderr),
    stopped,
    abandonedPipes: !drained,
  };
}

/** Whether `promise` settles within `ms`; the timer never outlives the call. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => timer = setTimeout(() => resolve(false), ms));
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
