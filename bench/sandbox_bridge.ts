/**
 * The sandbox's network bridge: what starting socat inside a job's network namespace (and waiting until it
 * listens) adds to the spawn-to-exit time of a trivial job, against the same bubblewrap command without it
 * and a bare spawn, interleaved in one run so machine load hits all three alike. Also the proxy's side: a
 * job's listener opened and closed. Linux with bwrap and socat only.
 * Run: `deno run -A bench/sandbox_bridge.ts [runs=50]`.
 * @module
 */
// deno-lint-ignore-file no-console -- a script whose output is the report.
import { startProxy } from "../lib/sandbox/proxy.ts";
import { bridgePieces, findSocat } from "../lib/sandbox/proxy_bridge.ts";
import { findOnPath } from "../lib/platform/which.ts";

const RUNS = Number(Deno.args[0] ?? 50);
const bwrap = await findOnPath("bwrap");
const socat = await findSocat();
if (!bwrap || !socat) {
  console.log("sandbox_bridge: skipped (needs bwrap and socat)");
  Deno.exit(0);
}

await using proxy = await startProxy({ domains: [] });
const job = proxy.openJob("bench");
const base = [
  ...["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"],
  ...["--unshare-net", "--unshare-pid", "--die-with-parent", "--new-session"],
];
const bridge = bridgePieces(job.socketPath!, socat, ["/bin/true"]);
const variants: Record<string, [string, string[]]> = {
  "bare /bin/true": ["/bin/true", []],
  "bwrap, no network": [bwrap, [...base, "/bin/true"]],
  "bwrap + bridge": [bwrap, [...base, ...bridge.bwrapArgs, ...bridge.argv]],
};
const times: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
for (let i = 0; i < RUNS; i++) {
  for (const [name, [command, args]] of Object.entries(variants)) {
    const started = performance.now();
    const { success } = await new Deno.Command(command, { args, stdin: "null", stdout: "null" }).output();
    if (!success) throw new Error(`${name} failed`);
    times[name].push(performance.now() - started);
  }
}
const opened: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const started = performance.now();
  await proxy.openJob(`open-${i}`).close();
  opened.push(performance.now() - started);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value: number) => `${value.toFixed(1)} ms`;
console.log(`\nsandbox bridge: spawn to exit of a trivial job, ${RUNS} interleaved runs, median`);
for (const [name, values] of Object.entries(times)) console.log(`  ${name.padEnd(20)} ${ms(median(values))}`);
const added = median(times["bwrap + bridge"]) - median(times["bwrap, no network"]);
console.log(`  the bridge adds      ${ms(added)} per job`);
console.log(`  proxy listener open+close ${ms(median(opened))} per job`);
console.log(
  `  load average: ${(await Deno.readTextFile("/proc/loadavg").catch(() => "?")).split(" ").slice(0, 3)}`,
);
