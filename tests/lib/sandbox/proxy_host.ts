/**
 * Runs the sandbox proxy in its own process for the tests that need a real unix socket: Deno grants those
 * only with `--allow-net=unix:<path>` (or all of `--allow-net`), which the test runner does not have.
 * Argument: JSON `{ domains, hosts }` (`hosts` maps test names to the addresses the resolver gives them).
 * Prints JSON lines on stdout: `{"socket": path}` once listening for job "1", then `{"denied": event}` per
 * refusal. Closes and exits when stdin ends.
 */
import { startProxy } from "../../../lib/sandbox/proxy.ts";

const config: { domains: string[]; hosts: Record<string, string> } = JSON.parse(Deno.args[0]);
const print = (value: unknown) =>
  Deno.stdout.writeSync(new TextEncoder().encode(`${JSON.stringify(value)}\n`));

const proxy = await startProxy({
  domains: config.domains,
  resolve: (host) => {
    const address = config.hosts[host];
    return address ? Promise.resolve([address]) : Promise.reject(new Error(`no such test host ${host}`));
  },
  onDenied: (event) => print({ denied: event }),
});
const job = proxy.openJob("1");
print({ socket: job.socketPath });
for await (const _ of Deno.stdin.readable) {
  // Nothing to read: stdin's end is the signal to stop.
}
await proxy.close();
