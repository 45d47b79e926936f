/**
 * A job's process group seen from outside: registered with the watchdog while anything of it may live, and,
 * once the shell exited, what it left running (found by group and by marker, output redirected or not).
 * @module
 */
import type { OwnedTree } from "../../lib/platform/mod.ts";
import { type ProcessRow, readMarkers } from "../../lib/process/processes.ts";
import { groupExists, treeAlive, treeMembers } from "../../lib/process/tree_kill.ts";

/** The part of the watchdog a job uses. */
export interface GroupWatch {
  watch(pgid: number): void;
  unwatch(pgid: number): void;
}

/** Options of {@link Leftovers}. */
export interface LeftoversOptions {
  pgid: number;
  /** `NAME=value` in the environment of every process of the job. */
  marker: string;
  watchdog?: GroupWatch;
  /** Windows: the job's Job Object, which counts its live processes (there are no groups to look at). */
  owned?: OwnedTree | null;
  /** Called once, when nothing of the group is left (or it was killed). */
  onGone: () => void;
  /** How often leftovers are looked at again while they live; default 3000. */
  recheckMs?: number;
}

/** Command lines shown per leftover at most. */
const COMMAND_CHARS = 60;

/** The live processes of one job's group after its shell exited. */
export class Leftovers {
  #options: LeftoversOptions;
  #rows: ProcessRow[] = [];
  #alive = false;
  #released = false;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: LeftoversOptions) {
    this.#options = options;
    options.watchdog?.watch(options.pgid);
  }

  /** Whether processes of the job outlived its shell (as of the last check). */
  get alive(): boolean {
    return this.#alive;
  }

  /** Their command lines, shortened (empty when the process table could not be read). */
  get commands(): string[] {
    return this.#rows.map((row) => {
      const command = row.command || `pid ${row.pid}`;
      return command.length > COMMAND_CHARS ? `${command.slice(0, COMMAND_CHARS - 1)}…` : command;
    });
  }

  /** Looks at the process table; when nothing is left, releases the group. */
  async check(): Promise<boolean> {
    if (this.#released) return false;
    const owned = this.#options.owned;
    if (owned) {
      this.#alive = owned.alive();
    } else {
      // The common case (nothing left) costs one signal and, on Linux, one grep: no `ps`.
      const gone = !groupExists(this.#options.pgid) && !await this.#markedElsewhere();
      const rows = gone
        ? []
        : await treeMembers(this.#options.pgid, { marker: this.#options.marker, commands: true });
      if (this.#released) return false;
      this.#rows = rows ?? [];
      this.#alive = rows ? rows.length > 0 : await treeAlive(this.#options.pgid);
    }
    if (!this.#alive) {
      this.release();
    } else {
      // Leftovers with redirected output end without an event: look again now and then.
      clearTimeout(this.#timer);
      this.#timer = setTimeout(() => this.check().catch(() => {}), this.#options.recheckMs ?? 3000);
    }
    return this.#alive;
  }

  /** Whether a process outside the group carries the job's marker (it left with `setsid`; Linux only). */
  async #markedElsewhere(): Promise<boolean> {
    const at = this.#options.marker.indexOf("=");
    const [name, value] = [this.#options.marker.slice(0, at), this.#options.marker.slice(at + 1)];
    return (await readMarkers(name)).some((found) => found.value === value);
  }

  /** Nothing of the group lives any more (or it was killed): stop watching it. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#alive = false;
    this.#rows = [];
    clearTimeout(this.#timer);
    this.#options.watchdog?.unwatch(this.#options.pgid);
    this.#options.onGone();
  }
}
