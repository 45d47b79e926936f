/**
 * Hot reload: watches the config file and hands each good new version to `apply`. The folder is watched,
 * not the file, because editors save by writing a temp file and renaming it over the old one (a watch on
 * the old inode would go quiet). Bursts of events are debounced; a broken config is logged and reported by
 * `error()` while the last good one stays in use.
 * @module
 */
import { basename, dirname } from "node:path";
import { log as defaultLog } from "../../lib/log.ts";
import { parseConfig } from "./config.ts";
import type { GatewayConfig } from "./types.ts";

/** Quiet time after the last event before the file is read: one save is often several events. */
export const RELOAD_DEBOUNCE_MS = 200;

/** What the watcher needs. */
export interface ConfigWatchOptions {
  /** The config file (absolute, as `loadConfig` returns it). */
  file: string;
  /** For `${env:VAR}` expansion, as at start-up. */
  env: Record<string, string | undefined>;
  /** Applies a good new config (Downstreams.reconfigure, which never waits for connects); in order. */
  apply(config: GatewayConfig): unknown;
  log?: { info(message: string): void; error(message: string, detail?: unknown): void };
  debounceMs?: number;
}

/** A running watch on one config file; `close()` stops it. */
export class ConfigWatcher implements AsyncDisposable {
  readonly #options: Required<ConfigWatchOptions>;
  readonly #watcher: Deno.FsWatcher;
  readonly #done: Promise<void>;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Reloads run one after another, in order. */
  #queue: Promise<void> = Promise.resolve();
  /** The text last read, good or bad: an event that leaves it unchanged reloads nothing. */
  #lastText: string | undefined;
  #error: string | undefined;
  #reloads = 0;
  #closed = false;

  /** Starts watching; `initialText` is the text the running config came from, when known. */
  constructor(options: ConfigWatchOptions, initialText?: string) {
    this.#options = { log: defaultLog, debounceMs: RELOAD_DEBOUNCE_MS, ...options };
    this.#lastText = initialText;
    this.#watcher = Deno.watchFs(dirname(options.file), { recursive: false });
    this.#done = this.#listen();
  }

  /** Why the file on disk is not in use (the last good config is), or undefined when it is. */
  error(): string | undefined {
    return this.#error;
  }

  /** How many times the file was read after a change (good or bad): lets tests await a reload. */
  reloads(): number {
    return this.#reloads;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#watcher.close();
    await this.#done;
    await this.#queue;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #listen(): Promise<void> {
    const name = basename(this.#options.file);
    try {
      for await (const event of this.#watcher) {
        if (event.paths.some((path) => basename(path) === name)) this.#schedule();
      }
    } catch (error) {
      if (!this.#closed) {
        this.#options.log.error(`Cannot watch the gateway config "${this.#options.file}"`, error);
      }
    }
  }

  #schedule(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#queue = this.#queue.then(() => this.#reload());
    }, this.#options.debounceMs);
  }

  async #reload(): Promise<void> {
    if (this.#closed) return;
    const { file, env, log } = this.#options;
    let text: string;
    try {
      text = await Deno.readTextFile(file);
    } catch (error) {
      this.#fail(
        `${file}: cannot read the config: ${error instanceof Error ? error.message : String(error)}`,
      );
      this.#lastText = undefined;
      this.#reloads++;
      return;
    }
    if (text === this.#lastText) return;
    this.#lastText = text;
    this.#reloads++;
    let config: GatewayConfig;
    try {
      config = parseConfig(text, file, env);
    } catch (error) {
      this.#fail(error instanceof Error ? error.message : String(error));
      return;
    }
    this.#error = undefined;
    try {
      const report = await this.#options.apply(config);
      log.info(`gateway: reloaded ${file}: ${JSON.stringify(report)}`);
    } catch (error) {
      log.error(`gateway: cannot apply the reloaded config ${file}`, error);
    }
  }

  #fail(message: string): void {
    this.#error = message;
    this.#options.log.error(`gateway: config not reloaded, the last good one stays in use: ${message}`);
  }
}
