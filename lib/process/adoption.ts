/**
 * Linux: this process adopts its orphaned descendants (it is a child subreaper), so a job's process that
 * left its group, its session and its marker behind (`setsid env -u MARKER …`, a double fork) still
 * descends from the server while the server lives, and becomes the server's child when its parent exits.
 * Adopted processes are provably ours: they are our children and only we can reap them, so their pids
 * cannot be reused under us. They are listed for the watchdogs (killed if we die), killed when the last
 * job registry closes, and reaped when they end (Deno reaps only the children it spawned itself).
 * The subreaper flag belongs to the whole process, hence one instance per process ({@link adoption}).
 * @module
 */
import { type LinuxFamily, processFamily } from "../platform/mod.ts";

/** Told when processes are adopted, and when they are gone (reaped). */
export interface AdoptionListener {
  adopted(pids: readonly number[]): void;
  gone(pids: readonly number[]): void;
}

/** How often our children are looked at while anything of ours may orphan a process. */
const SCAN_MS = 250;
const POLL_MS = 50;
/** SIGKILL rounds at most: each kills what the previous round's deaths handed to us. */
const KILL_ROUNDS = 20;

/** The orphans this process adopted. */
export class Adoption {
  #family: LinuxFamily | null = null;
  #sid = 0;
  /** Detached children Deno spawned (it reaps them): value says whether they keep the scans going. */
  #owned = new Map<number, boolean>();
  #adopted = new Set<number>();
  /** Children in our own session: Deno's helpers (ps, grep, filters), which Deno reaps; pid → start. */
  #helpers = new Map<number, number>();
  #listeners = new Set<AdoptionListener>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #registries = 0;

  /** Makes this process a child subreaper (Linux with --allow-ffi); false where that is not possible. */
  enable(): boolean {
    if (this.#family) return true;
    const family = processFamily();
    const self = family?.stat(Deno.pid);
    // Without `children` files orphans could not be found or reaped: better not adopt them at all.
    if (!family || !self || family.children() === null || !family.becomeSubreaper()) return false;
    this.#family = family;
    this.#sid = self.sid;
    return true;
  }

  /** Whether this process adopts its orphaned descendants. */
  get enabled(): boolean {
    return this.#family !== null;
  }

  /** Pids adopted and not yet reaped. */
  get adopted(): number[] {
    return [...this.#adopted];
  }

  /**
   * Registers a child spawned detached, which Deno reaps itself: call it in the turn that spawned the child.
   * The returned release (call it once Deno reaped the child) looks for the orphans it left at once.
   */
  own(pid: number, options: { keepsScanning?: boolean } = {}): () => void {
    if (!this.#family) return () => {};
    this.#owned.set(pid, options.keepsScanning ?? true);
    this.#schedule();
    return () => {
      if (this.#owned.delete(pid)) this.scan();
    };
  }

  /** Subscribes to adoptions and reaps; returns the unsubscribe. */
  subscribe(listener: AdoptionListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A job registry opened; the returned close says whether it was the last one open. */
  openRegistry(): () => boolean {
    this.#registries++;
    let open = true;
    return () => {
      if (open) this.#registries--;
      open = false;
      return this.#registries === 0;
    };
  }

  /** Looks at our children now: records the newly adopted, reaps those that ended. */
  scan(): void {
    const family = this.#family;
    const children = family?.children();
    if (!family || !children) return;
    const present = new Set(children);
    const adopted: number[] = [];
    for (const pid of children) {
      if (this.#owned.has(pid) || this.#adopted.has(pid)) continue;
      const stat = family.stat(pid);
      if (!stat || this.#helpers.get(pid) === stat.start) continue;
      // A job runs in a session of its own: a child in ours was spawned by Deno, never orphaned by a job.
      if (stat.sid === this.#sid) this.#helpers.set(pid, stat.start);
      else {
        this.#helpers.delete(pid);
        this.#adopted.add(pid);
        adopted.push(pid);
      }
    }
    const gone: number[] = [];
    for (const pid of this.#adopted) {
      if (present.has(pid) && !family.reap(pid)) continue;
      this.#adopted.delete(pid);
      gone.push(pid);
    }
    for (const pid of this.#helpers.keys()) if (!present.has(pid)) this.#helpers.delete(pid);
    for (const listener of this.#listeners) {
      if (adopted.length) listener.adopted(adopted);
      if (gone.length) listener.gone(gone);
    }
    this.#schedule();
  }

  /** Kills every adopted process and what their deaths hand to us: SIGTERM, up to `graceMs`, then SIGKILL. */
  async killAll(graceMs: number): Promise<void> {
    this.scan();
    const signalled = new Set<number>();
    const term = () => {
      for (const pid of this.#adopted) {
        if (signalled.has(pid)) continue;
        signalled.add(pid);
        signal(pid, "SIGTERM");
      }
    };
    term();
    const deadline = performance.now() + graceMs;
    while (this.#adopted.size > 0 && performance.now() < deadline) {
      await delay(POLL_MS);
      this.scan();
      term();
    }
    for (let round = 0; round < KILL_ROUNDS && this.#adopted.size > 0; round++) {
      for (const pid of this.#adopted) signal(pid, "SIGKILL");
      await delay(POLL_MS);
      this.scan();
    }
  }

  /** Scans again soon while something of ours lives that may orphan a process; never keeps us alive. */
  #schedule(): void {
    const busy = this.#adopted.size > 0 || [...this.#owned.values()].some(Boolean);
    if (!busy) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    } else if (this.#timer === undefined) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.scan();
      }, SCAN_MS);
      Deno.unrefTimer(this.#timer);
    }
  }
}

/** This process's adoptions (the subreaper flag is per process). */
export const adoption: Adoption = new Adoption();

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function signal(pid: number, sig: Deno.Signal): void {
  try {
    Deno.kill(pid, sig);
  } catch {
    // Already gone (a zombie until the next scan reaps it).
  }
}
