/** SHA-256 of bytes as lowercase hex: the hash edit and read tools exchange to detect stale reads. */

/** Lowercase hex SHA-256 of `data`. */
export async function sha256Hex(data: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
