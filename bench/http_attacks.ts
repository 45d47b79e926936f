/**
 * The resource-exhaustion attacks on HTTP mode, each against a freshly spawned server, with what they cost
 * it (Linux: reads /proc, and `prlimit` for EMFILE). docs/http.md holds the limits they run into.
 * `deno run -A bench/http_attacks.ts [emfile|half|sessions|gateway|malformed] [count]`
 * half waits 70 s; sessions (6,000) and gateway (40) take about a minute each.
 * @module
 */
// deno-lint-ignore-file no-console -- a script whose output is the report.
import { listServers, runArgs } from "../tools/catalog.ts";

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "attack", version: "0" } },
});
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Spawned {
  url: string;
  pid: number;
  stderr(): string;
  stop(): Promise<void>;
}

/** `mcp/<name>/main.ts --http 127.0.0.1:0`, optionally under `prlimit --nofile=<files>`. */
async function spawn(name: string, cwd: string, options: { args?: string[]; files?: number } = {}) {
  const server = listServers().find((entry) => entry.name === name)!;
  const argv = [...runArgs(server), ...options.args ?? [], "--http", "127.0.0.1:0"];
  argv.splice(argv.indexOf(server.entry), 0, "--allow-net=127.0.0.1");
  const [command, ...args] = options.files
    ? ["prlimit", `--nofile=${options.files}`, Deno.execPath(), ...argv]
    : [Deno.execPath(), ...argv];
  const child = new Deno.Command(command, {
    args,
    cwd,
    env: { MCP_WORKSPACE: cwd },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let text = "";
  const url = Promise.withResolvers<string>();
  (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) {
      text += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (match) url.resolve(match[1]);
    }
    url.reject(new Error(`${name}-mcp exited:\n${text}`));
  })();
  return {
    url: await url.promise,
    pid: child.pid,
    stderr: () => text,
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch {
        // Already gone.
      }
      await child.status;
    },
  } satisfies Spawned;
}

const rssMb = (pid: number) =>
  Math.round(Number(/VmRSS:\s+(\d+)/.exec(Deno.readTextFileSync(`/proc/${pid}/status`))![1]) / 1024);
const cpuSeconds = (pid: number) => {
  const fields = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1].split(" ");
  return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / 100;
};
const openFiles = (pid: number) => [...Deno.readDirSync(`/proc/${pid}/fd`)].length;

/** Processes below `pid`. */
function descendants(pid: number): number {
  let count = 0;
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const parent = Number(Deno.readTextFileSync(`/proc/${entry.name}/stat`).split(") ")[1].split(" ")[1]);
      if (parent === pid) count += 1 + descendants(Number(entry.name));
    } catch {
      // Gone meanwhile.
    }
  }
  return count;
}

async function post(url: string, body: string): Promise<number> {
  const response = await fetch(url, { method: "POST", headers: HEADERS, body });
  await response.body?.cancel();
  return response.status;
}

/** `count` requests, `batch` at a time; the statuses tallied: `200×40 503×2`. */
async function flood(count: number, batch: number, send: (i: number) => Promise<number>): Promise<string> {
  const tally = new Map<number, number>();
  for (let i = 0; i < count; i += batch) {
    const statuses = await Promise.all(
      Array.from({ length: Math.min(batch, count - i) }, (_, j) => send(i + j).catch(() => 0)),
    );
    for (const status of statuses) tally.set(status, (tally.get(status) ?? 0) + 1);
  }
  return [...tally].map(([status, times]) => `${status}×${times}`).join(" ");
}

const ATTACKS: Record<string, (cwd: string, count: number) => Promise<string>> = {
  async emfile(cwd, files) {
    const server = await spawn("hello", cwd, { files: files || 64 });
    const { port } = new URL(server.url);
    const conns: Deno.Conn[] = [];
    let refused = 0;
    for (let i = 0; i < 200; i++) {
      await Deno.connect({ hostname: "127.0.0.1", port: Number(port) }).then(
        (c) => conns.push(c),
        () => refused++,
      );
    }
    await sleep(1500);
    for (const conn of conns) conn.close();
    let status = "";
    for (let i = 0; i < 10 && status !== "200"; i++, await sleep(500)) {
      status = await post(server.url, INITIALIZE).then(String, (error) => String(error).slice(0, 40));
    }
    const lines = server.stderr().match(/Too many open files/g)?.length ?? 0;
    await server.stop();
    return `nofile ${files || 64}, 200 connects (${refused} refused), closed: initialize then ${status}; ` +
      `${lines} EMFILE log lines`;
  },
  async half(cwd, count) {
    const server = await spawn("hello", cwd);
    const { host, port } = new URL(server.url);
    const before = openFiles(server.pid);
    const conns: Deno.Conn[] = [];
    const head = `POST /mcp HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/json\r\n`;
    for (let i = 0; i < (count || 3000); i++) {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(port) });
      conns.push(conn);
      const text = ["", head, `${head}content-length: 1000\r\n\r\n{"jsonrpc"`][i % 3];
      if (text) await conn.write(new TextEncoder().encode(text));
    }
    const opened = `${conns.length} half-sent requests: server fds ${before} -> ${openFiles(server.pid)}`;
    await sleep(70_000);
    const after = `after 70 s: ${openFiles(server.pid) - before} held, RSS ${rssMb(server.pid)} MB`;
    for (const conn of conns) conn.close();
    await server.stop();
    return `${opened}; ${after}`;
  },
  async sessions(cwd, count) {
    const server = await spawn("hello", cwd);
    await sleep(500);
    const before = rssMb(server.pid);
    const statuses = await flood(count || 6000, 50, () => post(server.url, INITIALIZE));
    await sleep(1000);
    const result = `${count || 6000} initialize-only sessions: ${statuses}; RSS ${before} -> ${
      rssMb(server.pid)
    } MB`;
    await server.stop();
    return result;
  },
  async gateway(cwd, count) {
    const entry = (name: string) => ({
      command: Deno.execPath(),
      args: runArgs(listServers().find((server) => server.name === name)!),
    });
    await Deno.writeTextFile(
      `${cwd}/gw.json`,
      JSON.stringify({ mcpServers: { a: entry("hello"), b: entry("notes") } }),
    );
    const server = await spawn("gateway", cwd, { args: ["--config", `${cwd}/gw.json`] });
    const statuses = await flood(count || 40, 10, () => post(server.url, INITIALIZE));
    await sleep(10_000);
    const result = `${count || 40} gateway sessions: ${statuses}; ${descendants(server.pid)} child processes`;
    await server.stop();
    return result;
  },
  async malformed(cwd, count) {
    const server = await spawn("shell", cwd);
    await post(server.url, INITIALIZE);
    await sleep(1500);
    const before = cpuSeconds(server.pid);
    const bodies = ["{}", "not json", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })];
    const statuses = await flood(count || 300, 10, (i) => post(server.url, bodies[i % bodies.length]));
    await sleep(1500);
    const cpu = (cpuSeconds(server.pid) - before).toFixed(2);
    await server.stop();
    return `${count || 300} malformed session-less POSTs to shell-mcp: ${statuses}; server CPU ${cpu} s`;
  },
};

const [kind = "", count = "0"] = Deno.args;
if (!(kind in ATTACKS)) {
  console.error(`usage: bench/http_attacks.ts ${Object.keys(ATTACKS).join("|")} [count]`);
  Deno.exit(2);
}
const cwd = await Deno.makeTempDir({ prefix: "http-attacks-" });
try {
  console.log(await ATTACKS[kind](cwd, Number(count)));
} finally {
  await Deno.remove(cwd, { recursive: true });
}
