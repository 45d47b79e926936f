/**
 * The report's one chart, as hand-written SVG: a horizontal bar per row with a ratio, ours ÷ best peer on a
 * log scale (1× in the middle), green where the row's target is met, red where missed, grey without one.
 * @module
 */
import { type Area, ratio, verdict } from "./row.ts";

const WIDTH = 1000;
/** Room for a label of {@link LABEL_CHARS} characters at 12 px sans-serif (about 6.5 px a character). */
const LABEL = 460;
const LABEL_CHARS = 66;
const BAR_H = 18;
const GAP = 6;
const TOP = 40;
/** The scale spans 1/100× to 100×; ratios beyond are drawn at the edge with their value. */
const DECADES = 2;

const escape = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The SVG document for every row of `areas` that has a ratio. */
export function renderChart(areas: Area[], title: string): string {
  const bars = areas.flatMap((area) =>
    area.rows.flatMap((row) => {
      const r = ratio(row);
      return r === null || r <= 0
        ? []
        : [{ label: `${area.title}: ${row.metric}`, r, verdict: verdict(row) }];
    })
  );
  const plot = WIDTH - LABEL - 80;
  const mid = LABEL + plot / 2;
  const x = (r: number) =>
    mid + (Math.max(-DECADES, Math.min(DECADES, Math.log10(r))) / DECADES) * (plot / 2);
  const height = TOP + bars.length * (BAR_H + GAP) + 40;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${WIDTH / 2}" y="20" text-anchor="middle" font-size="14" font-weight="bold">${
      escape(title)
    }</text>`,
  ];
  for (let decade = -DECADES; decade <= DECADES; decade++) {
    const gx = mid + (decade / DECADES) * (plot / 2);
    const label = decade < 0 ? `1/${10 ** -decade}×` : `${10 ** decade}×`;
    parts.push(
      `<line x1="${gx}" y1="${TOP - 6}" x2="${gx}" y2="${height - 30}" stroke="${
        decade ? "#ddd" : "#333"
      }"/>`,
      `<text x="${gx}" y="${height - 14}" text-anchor="middle" fill="#555">${label}</text>`,
    );
  }
  parts.push(
    `<text x="${LABEL}" y="${
      height - 2
    }" fill="#555">← ours better (lower) · ratio = ours ÷ best peer, log scale · higher →</text>`,
  );
  bars.forEach((bar, index) => {
    const y = TOP + index * (BAR_H + GAP);
    const end = x(bar.r);
    const color = bar.verdict === "met" ? "#2e7d32" : bar.verdict === "missed" ? "#c62828" : "#78909c";
    const label = bar.label.length > LABEL_CHARS ? `${bar.label.slice(0, LABEL_CHARS - 1)}…` : bar.label;
    parts.push(
      `<text x="${LABEL - 8}" y="${y + BAR_H - 5}" text-anchor="end">${escape(label)}</text>`,
      `<rect x="${Math.min(mid, end)}" y="${y}" width="${
        Math.max(1, Math.abs(end - mid))
      }" height="${BAR_H}" fill="${color}"/>`,
      `<text x="${Math.max(mid, end) + 4}" y="${y + BAR_H - 5}" fill="#333">${
        bar.r >= 10 ? bar.r.toFixed(0) : bar.r.toFixed(2)
      }×${bar.verdict === "–" ? "" : ` ${bar.verdict}`}</text>`,
    );
  });
  parts.push("</svg>", "");
  return parts.join("\n");
}
