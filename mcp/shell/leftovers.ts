/**
 * A job's process group seen from outside: registered with the watchdog while anything of it may live, and,
 * once the shell exited, what it left running (found by group, session, marker and descent, output
 * redirected or not). One look at the process table serves every job ({@link lookAtLeftovers}).
 * @module
 */
import type { OwnedTree } from "../../lib/platform/mod.ts";
import { commandsOf, listProcesses, type ProcessRow, readMarkers } from "../../lib/process/processes.ts";
import { treeAlive, treeOf } from "../../lib/process/tree_view.ts";

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
  /** Processes not to name to the agent: the sandbox's own (bubblewrap's init), not the job's. */
  isSandboxProcess?: (command: string) => boolean;
}

/** The process table and who carries which marker entry: one look shared by every job. */
export interface Snapshot {
  rows: ProcessRow[];
  /** `NAME=value` → pids carrying it. */
  marked: Map<string, Set<number>>;
}

/** Command lines shown per leftover at most. */
const COMMAND_CHARS = 60;

/** The live processes of one job's group after its shell exited. */
export class Leftovers {
  #options: LeftoversOptions;
  #rows: ProcessRow[] = [];
  #alive = false;
  #released = false;

  constructor(options: LeftoversOptions) {
    this.#options = options;
    options.watchdog?.watch(options.pgid);
  }

  /** Whether processes of the job outlived its shell (as of the last look). */
  get alive(): boolean {
    return this.#alive;
  }

  /**
   * Whether a process found with command line `command` is one the job left: not the sandbox's own (bubblewrap,
   * the network bridge), which ends by itself once the job's processes are gone, and not one that ended before
   * its command line was read (ps shows such a zombie as `[name] <defunct>`).
   */
  isLeftover(command: string | undefined): boolean {
    if (command === undefined) return true;
    return !/^\[[^\]]*\] <defunct>$/.test(command) && !(this.#options.isSandboxProcess?.(command) ?? false);
  }

  /** Their command lines, shortened (a pid where the command line is not known). */
  get commands(): string[] {
    const hidden = this.#options.isSandboxProcess;
    const rows = hidden ? this.#rows.filter((row) => !row.command || !hidden(row.command)) : this.#rows;
    return rows.map((row) => {
      const command = row.command || `pid ${row.pid}`;
      return command.length > COMMAND_CHARS ? `${command.slice(0, COMMAND_CHARS - 1)}…` : command;
    });
  }

  /** Looks at the process table now; when nothing is left, releases the group. */
  async check(): Promise<boolean> {
    if (this.#released) return false;
    const owned = this.#options.owned;
    if (owned) this.#set(owned.alive(), []);
    else await lookAtLeftovers([this], { commands: true });
    return this.#alive;
  }

  /** The job's live processes in `snapshot`; its shell was reaped, so its group id is trusted only if unused. */
  membersIn(snapshot: Snapshot): ProcessRow[] {
    const marked = snapshot.marked.get(this.#options.marker);
    const view = treeOf(snapshot.rows, {
      pgid: this.#options.pgid,
      rootRunning: false,
      isMember: (row) => marked?.has(row.pid) ?? false,
    });
    return view.members;
  }

  /** Takes the result of a look: `members` (with command lines, when known), or, without a table, `alive`. */
  update(alive: boolean, members: ProcessRow[]): void {
    if (this.#released) return;
    // Windows: the Job Object counts the tree's live processes itself.
    if (this.#options.owned) return this.#set(this.#options.owned.alive(), []);
    const known = new Map(this.#rows.map((row) => [row.pid, row.command]));
    this.#set(alive, members.map((row) => ({ ...row, command: row.command ?? known.get(row.pid) })));
  }

  /** Nothing of the group lives any more (or it was killed): stop watching it. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#alive = false;
    this.#rows = [];
    this.#options.watchdog?.unwatch(this.#options.pgid);
    this.#options.onGone();
  }

  /** Their pids (as of the last look). */
  get pids(): number[] {
    return this.#rows.map((row) => row.pid);
  }

  /** The job's process group id. */
  get pgid(): number {
    return this.#options.pgid;
  }

  /** The name of the job's marker variable. */
  get markerName(): string {
    return this.#options.marker.slice(0, this.#options.marker.indexOf("="));
  }

  #set(alive: boolean, rows: ProcessRow[]): void {
    this.#alive = alive;
    this.#rows = rows;
    if (!alive) this.release();
  }
}

/**
 * One look at the process table (and one search for markers) for all of `leftovers`; `commands` also reads
 * the command lines of what it finds. Cheap enough to run for every job at once.
 */
export async function lookAtLeftovers(
  leftovers: readonly Leftovers[],
  options: { commands?: boolean } = {},
): Promise<void> {
  if (leftovers.length === 0) return;
  const snapshot = await takeSnapshot(new Set(leftovers.map((each) => each.markerName)));
  if (!snapshot) {
    for (const each of leftovers) each.update(await treeAlive(each.pgid, { rootRunning: false }), []);
    return;
  }
  const found = leftovers.map((each) => each.membersIn(snapshot));
  const commands = options.commands ? await commandsOf(found.flat().map((row) => row.pid)) : new Map();
  leftovers.forEach((each, i) => {
    // A process that ended before its command line was read is gone: not a leftover.
    const members = options.commands
      ? found[i].filter((row) => commands.has(row.pid) && each.isLeftover(commands.get(row.pid)))
      : found[i];
    each.update(members.length > 0, members.map((row) => ({ ...row, command: commands.get(row.pid) })));
  });
}

/** The process table and who carries which entry of the variables `names`, or null when there is no table. */
async function takeSnapshot(names: Set<string>): Promise<Snapshot | null> {
  const rows = await listProcesses();
  if (rows === null) return null;
  const marked = new Map<string, Set<number>>();
  for (const name of names) {
    for (const { pid, value } of await readMarkers(name)) {
      const entry = `${name}=${value}`;
      marked.set(entry, (marked.get(entry) ?? new Set()).add(pid));
    }
  }
  return { rows, marked };
}
