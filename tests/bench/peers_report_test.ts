import assert from "node:assert/strict";
import { renderChart } from "../../bench/peers/chart.ts";
import { renderReport } from "../../bench/peers/report.ts";
import { type Area, ratio, verdict } from "../../bench/peers/row.ts";

const area: Area = {
  id: "demo",
  title: "Demo",
  method: "How it was measured.",
  peerColumns: ["A", "B"],
  rows: [
    {
      metric: "tokens",
      unit: "tokens",
      ours: 100,
      peers: { A: 400, B: 250 },
      better: "lower",
      target: { kind: "ratio-max", value: 0.5 },
    },
    {
      metric: "throughput",
      unit: "MB/s",
      ours: 50,
      peers: { A: 1, B: null },
      better: "higher",
      target: { kind: "ratio-min", value: 100 },
    },
  ],
};
const info = { date: "2026-12-02 03:00 UTC", machine: "test", load: "0", versions: ["deno x"], minutes: 1 };

Deno.test("ratios are against the best measured peer, in the direction that is better", () => {
  assert.equal(ratio(area.rows[0]), 0.4); // 100 ÷ B's 250, the lower peer
  assert.equal(verdict(area.rows[0]), "met");
  assert.equal(ratio(area.rows[1]), 50); // B not measured
  assert.equal(verdict(area.rows[1]), "missed");
});

Deno.test("the report has a table per area, the missed targets, and not-measured areas", () => {
  const report = renderReport([area, {
    ...area,
    id: "x",
    title: "Later",
    method: "",
    rows: [],
    notMeasured: "no time",
  }], info);
  assert.match(report, /\| tokens \| 100 \| 400 \| 250 \| 0\.40× \(B\) \| ≤ 0\.5× \| met \|/);
  assert.match(report, /1 met, 1 missed \(throughput\)/);
  assert.match(report, /## Later\n\nNot measured in this run: no time/);
});

Deno.test("the chart is one SVG with a bar per ratio", () => {
  const svg = renderChart([area], "t <&>");
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.equal(svg.match(/<rect x=/g)?.length, 2);
  assert.match(svg, /t &lt;&amp;&gt;/);
  assert.match(svg, /0\.40× met/);
});
