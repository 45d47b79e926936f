/** What a file holds, judged from its first bytes: text, an image we can return, or another binary. */

/** The verdict on a file's head. */
export type Sniffed =
  | { kind: "text"; bom: boolean }
  | { kind: "image"; mimeType: string; label: string }
  | { kind: "binary"; label: string };

/** How many leading bytes the verdict looks at. */
export const SNIFF_BYTES = 8192;

interface Magic {
  bytes: (number | null)[];
  at?: number;
  label: string;
  mimeType?: string;
}

/** Signatures worth naming; `null` matches any byte. Images with a mimeType are returned as images. */
const MAGICS: Magic[] = [
  { bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], label: "PNG image", mimeType: "image/png" },
  { bytes: [0xff, 0xd8, 0xff], label: "JPEG image", mimeType: "image/jpeg" },
  { bytes: [0x47, 0x49, 0x46, 0x38], label: "GIF image", mimeType: "image/gif" },
  {
    bytes: [0x52, 0x49, 0x46, 0x46, null, null, null, null, 0x57, 0x45, 0x42, 0x50],
    label: "WebP image",
    mimeType: "image/webp",
  },
  { bytes: [0x42, 0x4d], label: "BMP image" },
  { bytes: [0x00, 0x00, 0x01, 0x00], label: "ICO image" },
  { bytes: [0x25, 0x50, 0x44, 0x46], label: "PDF document" },
  { bytes: [0x7f, 0x45, 0x4c, 0x46], label: "ELF executable" },
  { bytes: [0x4d, 0x5a], label: "Windows executable" },
  { bytes: [0xcf, 0xfa, 0xed, 0xfe], label: "Mach-O executable" },
  { bytes: [0xca, 0xfe, 0xba, 0xbe], label: "Mach-O universal binary or Java class" },
  { bytes: [0x00, 0x61, 0x73, 0x6d], label: "WebAssembly module" },
  { bytes: [0x50, 0x4b, 0x03, 0x04], label: "ZIP archive (also jar, docx, xlsx)" },
  { bytes: [0x1f, 0x8b], label: "gzip archive" },
  { bytes: [0x28, 0xb5, 0x2f, 0xfd], label: "zstd archive" },
  { bytes: [0x42, 0x5a, 0x68], label: "bzip2 archive" },
  { bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], label: "xz archive" },
  { bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], label: "7-Zip archive" },
  { bytes: [0x75, 0x73, 0x74, 0x61, 0x72], at: 257, label: "tar archive" },
  { bytes: [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66], label: "SQLite database" },
  { bytes: [0xff, 0xfe], label: "UTF-16 (LE) text" },
  { bytes: [0xfe, 0xff], label: "UTF-16 (BE) text" },
];

/** Judges a file from its first bytes (up to {@link SNIFF_BYTES}). */
export function sniff(head: Uint8Array): Sniffed {
  for (const magic of MAGICS) {
    if (!matches(head, magic)) continue;
    if (magic.mimeType) return { kind: "image", mimeType: magic.mimeType, label: magic.label };
    // Two-byte signatures (BM, MZ) also start ordinary text: only trust them when the head is binary.
    if (magic.bytes.length > 2 || hasNul(head) || magic.label.startsWith("UTF-16")) {
      return { kind: "binary", label: magic.label };
    }
  }
  if (hasNul(head)) return { kind: "binary", label: "binary data" };
  const bom = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
  return { kind: "text", bom };
}

function matches(head: Uint8Array, magic: Magic): boolean {
  const at = magic.at ?? 0;
  if (head.length < at + magic.bytes.length) return false;
  return magic.bytes.every((byte, i) => byte === null || head[at + i] === byte);
}

function hasNul(head: Uint8Array): boolean {
  return head.subarray(0, SNIFF_BYTES).indexOf(0) >= 0;
}
