/**
 * Byte relays for the proxy: copy both ways between a client and an origin, pass on a half-close (a git
 * client ends its request and waits for the pack), and drop both ends when nothing moved for a while or the
 * proxy shuts down, so an abandoned tunnel cannot hold a connection slot forever.
 * @module
 */

/** Closes a connection once, whatever state it is in. */
export function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // Already closed.
  }
}

/** Writes all of `data` to `conn`. */
export async function writeAll(conn: Deno.Conn, data: Uint8Array): Promise<void> {
  let written = 0;
  while (written < data.length) written += await conn.write(data.subarray(written));
}

/**
 * Relays bytes between `client` and `origin` until both directions ended, an error, `idleMs` without a byte
 * either way, or `signal`; then closes both. `first` is what the client already sent past its request head.
 */
export async function relay(
  client: Deno.Conn,
  origin: Deno.Conn,
  options: { idleMs: number; signal: AbortSignal; first?: Uint8Array },
): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const closeBoth = () => {
    clearTimeout(timer);
    closeQuietly(client);
    closeQuietly(origin);
  };
  const touch = () => {
    clearTimeout(timer);
    timer = setTimeout(closeBoth, options.idleMs);
  };
  if (options.signal.aborted) return closeBoth();
  options.signal.addEventListener("abort", closeBoth, { once: true });
  touch();
  // A reset or an error in one direction ends both: the other's pending read then returns or throws.
  const upward = (async () => {
    if (options.first?.length) await writeAll(origin, options.first);
    await copy(client, origin, touch);
  })().catch(closeBoth);
  const downward = copy(origin, client, touch).catch(closeBoth);
  try {
    await Promise.all([upward, downward]);
  } finally {
    options.signal.removeEventListener("abort", closeBoth);
    closeBoth();
  }
}

async function copy(from: Deno.Conn, to: Deno.Conn, touch: () => void): Promise<void> {
  const buffer = new Uint8Array(64 * 1024);
  while (true) {
    const read = await from.read(buffer);
    if (read === null) break;
    touch();
    await writeAll(to, buffer.subarray(0, read));
  }
  // The reader said all it will; the other side may still answer.
  await (to as Deno.TcpConn).closeWrite?.().catch(() => {});
}
