/**
 * Coalesced re-runs: a server's `tools/list_changed` re-lists its tools, and a server sending 10,000 of them
 * made the gateway send 10,000 tools/list requests (a minute of CPU, 355 MB, that server's calls queued
 * behind them). Each notification only says "the list is stale": one re-list after the last is enough.
 * @module
 */

/**
 * A trigger for `task`: at most one run in flight and one waiting. A trigger during a run asks for one more
 * run after it (the latest state wins); more triggers meanwhile add nothing. `task` handles its own errors.
 */
export function coalesced(task: () => Promise<void>): () => void {
  let running = false;
  let again = false;
  const loop = async () => {
    running = true;
    try {
      do {
        again = false;
        await task();
      } while (again);
    } finally {
      running = false;
    }
  };
  return () => {
    if (running) again = true;
    else loop().catch(() => {});
  };
}
