/**
 * Who listens on a TCP port, on Linux: `/proc/net/tcp` and `/proc/net/tcp6` list every socket with its
 * local address, state and owner's uid. `mod.ts` calls this on Linux only; the parser is a pure function.
 * Deno refuses to read anything under `/proc/<pid>` (which `/proc/net` links to) without `--allow-all`, so
 * a server reads the tables through `cat` when it may run it, and sees nothing otherwise.
 * @module
 */

/** A socket listening on a TCP port, as the OS lists it. */
export interface PortListener {
  /** The local address it listens on: `127.0.0.1`, `0.0.0.0`, `[::1]`, `[::]`. */
  address: string;
  /** Its owner's user id. */
  uid: number;
}

/** The kernel's TCP state number of a listening socket (TCP_LISTEN). */
const LISTEN_STATE = "0A";

/**
 * The sockets listening on `port` in the text of `/proc/net/tcp` or `/proc/net/tcp6`. Addresses there are
 * the raw 32-bit words in host byte order, read here as little-endian (x86-64 and AArch64, Deno's Linux
 * targets).
 */
export function parseProcNetTcp(text: string, port: number): PortListener[] {
  const listeners: PortListener[] = [];
  for (const line of text.split("\n").slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 8 || fields[3] !== LISTEN_STATE) continue;
    const [address, portHex] = fields[1].split(":");
    const uid = Number(fields[7]);
    if (parseInt(portHex, 16) !== port || !Number.isInteger(uid)) continue;
    listeners.push({ address: decodeAddress(address), uid });
  }
  return listeners;
}

/** `0100007F` → `127.0.0.1`; 32 hex digits → a bracketed IPv6 address in its short form. */
function decodeAddress(hex: string): string {
  const bytes: number[] = [];
  for (let word = 0; word < hex.length; word += 8) {
    // Each 32-bit word is printed as a number in host byte order: its bytes come out reversed.
    for (let i = 6; i >= 0; i -= 2) bytes.push(parseInt(hex.slice(word + i, word + i + 2), 16));
  }
  if (bytes.length === 4) return bytes.join(".");
  const groups = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16));
  // The URL parser writes an IPv6 address in its canonical short form.
  return URL.parse(`http://[${groups.join(":")}]/`)?.hostname ?? `[${groups.join(":")}]`;
}

/** The TCP tables, IPv4 then IPv6. */
const TABLES = ["/proc/net/tcp", "/proc/net/tcp6"];

/**
 * The sockets listening on `port` (Linux), or undefined when the tables cannot be read: `cat` is asked only
 * when running it is already granted, so no permission prompt can ever wait on a person.
 */
export async function linuxPortListeners(port: number): Promise<PortListener[] | undefined> {
  if (Deno.permissions.querySync({ name: "run", command: "cat" }).state !== "granted") return undefined;
  const listeners: PortListener[] = [];
  let read = false;
  for (const table of TABLES) {
    const text = await catFile(table);
    if (text === undefined) continue;
    read = true;
    listeners.push(...parseProcNetTcp(text, port));
  }
  return read ? listeners : undefined;
}

/** The file's text as `cat` prints it; undefined when `cat` fails (no IPv6 table, no `cat`). */
async function catFile(path: string): Promise<string | undefined> {
  try {
    const output = await new Deno.Command("cat", {
      args: [path],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    return output.success ? new TextDecoder().decode(output.stdout) : undefined;
  } catch {
    return undefined;
  }
}
