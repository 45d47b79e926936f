/** Small number formats shared by every server's text output. */

/** `48311` → `48,311`. */
export function formatCount(n: number): string {
  return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** `2150` → `2.1K`, `5_300_000` → `5.1M`: compact sizes for listings. */
export function formatSize(bytes: number): string {
  const units = ["B", "K", "M", "G", "T"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  if (unit === 0) return `${bytes}B`;
  return `${value < 10 ? value.toFixed(1) : Math.round(value)}${units[unit]}`;
}
