/**
 * The network seal of the Claude Code e2e, checked rather than assumed: Claude Code is a native binary (no
 * Node preload can hold it back), so every run goes under `strace -f` recording the socket addresses it and
 * every process it starts (the MCP servers, their jobs) connect or send to. Any address off loopback (a DNS
 * query to the resolver included) fails the scenario. strace's seccomp-bpf mode stops only on those calls.
 * @module
 */

/** strace's arguments before the traced command: follow children, record address-taking calls to `file`. */
export function traceArgs(file: string): string[] {
  return ["-f", "-qq", "--seccomp-bpf", "-e", "trace=connect,sendto,sendmsg", "-o", file];
}

/** IPv4 and IPv6 addresses in strace's rendering of a sockaddr. */
const INET = /sa_family=AF_INET, sin_port=htons\((\d+)\), sin_addr=inet_addr\("([^"]+)"\)/g;
const INET6 = /sa_family=AF_INET6, sin6_port=htons\((\d+)\),.*?inet_pton\(AF_INET6, "([^"]+)"/g;

/** `host:port` of every IPv4/IPv6 address in the trace, each once. */
export async function tracedAddresses(traceFile: string): Promise<string[]> {
  const text = await Deno.readTextFile(traceFile);
  const found = new Set<string>();
  for (const pattern of [INET, INET6]) {
    for (const [, port, host] of text.matchAll(pattern)) found.add(`${host}:${port}`);
  }
  return [...found];
}

/** Whether a `host:port` from {@link tracedAddresses} is on loopback: 127.0.0.0/8, ::1, or 127/8 in IPv6. */
export function isLoopback(address: string): boolean {
  const host = address.slice(0, address.lastIndexOf(":")).replace(/^::ffff:/i, "");
  return /^127\.\d+\.\d+\.\d+$/.test(host) || host === "::1";
}
