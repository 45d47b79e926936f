/**
 * Edit correctness on the known-bytes cases: runs bench/edit.ts (the cases and the byte comparison live
 * there) in its own process and takes its side-by-side table and right-outcome counts for ours, the
 * reference filesystem server's edit_file and Desktop Commander's edit_block.
 * @module
 */
import { join } from "node:path";
import { REPO_ROOT } from "../../tools/catalog.ts";
import type { Area } from "./row.ts";

const COLUMNS = ["reference filesystem", "Desktop Commander"];

/** Measures the area (bench/edit.ts makes its own temp folder; `_workspace` unused). */
export async function edit(_workspace: string): Promise<Area> {
  const { success, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "-A", join(REPO_ROOT, "bench", "edit.ts")],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const out = new TextDecoder().decode(stdout);
  if (!success) throw new Error(`bench/edit.ts failed: ${new TextDecoder().decode(stderr).slice(-300)}`);
  const lines = out.split("\n");
  const start = lines.findIndex((line) => line.startsWith("### Side by side"));
  const table = lines.slice(start + 2).filter((line) => line.startsWith("|"));
  const header = table[0].split("|").map((cell) => cell.trim()).filter(Boolean);
  const totals = lines.find((line) => line.includes("**right outcomes**"));
  const counts = [...(totals ?? "").matchAll(/\*\*(\d+)\/(\d+)\*\*/g)].map((match) => Number(match[1]));
  const cases = Number(/\*\*\d+\/(\d+)\*\*/.exec(totals ?? "")?.[1] ?? NaN);
  if (header.length !== 4 || counts.length !== 3) throw new Error("bench/edit.ts printed no peer columns");
  return {
    id: "edit",
    title: "Edit correctness on the known-bytes cases",
    method: `The ${cases} cases of bench/edit.ts (5 MB files, CRLF, curly quotes, NBSP, trailing spaces, ` +
      "BOM, no final newline, ambiguous and dedented old text that must be refused), each on a fresh file, " +
      "the bytes after the edit compared with the known right bytes. Columns: " + header.slice(1).join(", ") +
      ".",
    peerColumns: COLUMNS,
    rows: [{
      metric: `right outcomes (of ${cases})`,
      unit: "cases",
      ours: counts[0],
      peers: { [COLUMNS[0]]: counts[1], [COLUMNS[1]]: counts[2] },
      better: "higher",
    }],
    details: table,
  };
}
