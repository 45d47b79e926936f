/**
 * The fixed fixture repo the trajectory replay works on, written fresh into a temp folder for every
 * toolkit and task: a small ES-module project with a failing test (node:test), a helper to rename across
 * files, and a nightly job that prints a 20,000-line log with one error in it.
 * @module
 */
import { dirname, join } from "node:path";

/** The line the log investigation must surface. */
export const LOG_CULPRIT = 'duplicate key "sku-1187"';

const FILES: Record<string, string> = {
  "package.json":
    '{ "name": "shop", "private": true, "type": "module", "scripts": { "test": "node --test" } }\n',
  "src/pricing.js": [
    "// Prices are in dollars with cents; every result is rounded to the cent.",
    'import { TAX_RATES } from "./tax.js";',
    "",
    "/** Price after a percentage discount. */",
    "export function applyDiscount(price, percent) {",
    "  return price - percent;",
    "}",
    "",
    "/** Price with the region's tax added. */",
    "export function withTax(price, region) {",
    "  const rate = TAX_RATES[region] ?? 0;",
    "  return Math.round(price * (100 + rate)) / 100;",
    "}",
    "",
    ...Array.from({ length: 40 }, (_, i) => [
      `/** Bulk tier ${i}: the unit price for orders of at least ${(i + 1) * 10} items. */`,
      `export function tier${i}(unit) {`,
      `  return Math.round(unit * ${100 - i}) / 100;`,
      "}",
      "",
    ]).flat(),
  ].join("\n"),
  "src/tax.js": 'export const TAX_RATES = { "us-ca": 7.25, "us-ny": 4, "eu-de": 19 };\n',
  "src/format.js": [
    "/** Dollars with two decimals and a thousands separator. */",
    "export function formatTotal(amount) {",
    '  return "$" + amount.toFixed(2).replace(/\\B(?=(\\d{3})+(?!\\d))/g, ",");',
    "}",
    "",
  ].join("\n"),
  "src/cart.js": [
    'import { applyDiscount } from "./pricing.js";',
    'import { formatTotal } from "./format.js";',
    "",
    "export function cartTotal(items, percent = 0) {",
    "  const sum = items.reduce((total, item) => total + item.price * item.qty, 0);",
    "  return applyDiscount(sum, percent);",
    "}",
    "",
    "export function cartLine(items, percent) {",
    "  return `Total: ${formatTotal(cartTotal(items, percent))}`;",
    "}",
    "",
  ].join("\n"),
  "src/report.js": [
    'import { formatTotal } from "./format.js";',
    "",
    "export function dailyReport(totals) {",
    '  return totals.map((total, day) => `day ${day + 1}: ${formatTotal(total)}`).join("\\n");',
    "}",
    "",
  ].join("\n"),
  "test/pricing.test.js": [
    'import { test } from "node:test";',
    'import assert from "node:assert/strict";',
    'import { applyDiscount } from "../src/pricing.js";',
    "",
    'test("a 10 % discount", () => assert.equal(applyDiscount(200, 10), 180));',
    'test("no discount", () => assert.equal(applyDiscount(99.99, 0), 99.99));',
    'test("rounded to the cent", () => assert.equal(applyDiscount(10, 33), 6.7));',
    "",
  ].join("\n"),
  "test/format.test.js": [
    'import { test } from "node:test";',
    'import assert from "node:assert/strict";',
    'import { formatTotal } from "../src/format.js";',
    'import { dailyReport } from "../src/report.js";',
    "",
    'test("thousands", () => assert.equal(formatTotal(1234.5), "$1,234.50"));',
    'test("report", () => assert.equal(dailyReport([1, 2]), "day 1: $1.00\\nday 2: $2.00"));',
    "",
  ].join("\n"),
  "scripts/nightly.sh": [
    "#!/bin/bash",
    "# Nightly import: 20,000 progress lines, one of which is the reason it fails.",
    "for i in $(seq 1 20000); do",
    '  if [ "$i" -eq 13337 ]; then echo "2026-12-01T02:13:37Z ERROR import batch 42: duplicate key \\"sku-1187\\" in data/inventory.csv line 1187"; fi',
    '  echo "2026-12-01T02:00:00Z INFO import batch $((i / 300)): row $i ok (sku-$i, warehouse w$((i % 7)))"',
    "done",
    'echo "import failed: 1 error"',
    "exit 1",
    "",
  ].join("\n"),
  "data/inventory.csv": ["sku,qty", ...Array.from({ length: 1200 }, (_, i) => `sku-${i + 1},${i % 50}`)]
    .map((line, index) => index === 1187 ? "sku-1187,3" : line).join("\n") + "\n",
};

/** Writes the fixture into a new temp folder and returns its path. */
export async function writeFixture(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "bench-peers-repo-" });
  for (const [path, text] of Object.entries(FILES)) {
    await Deno.mkdir(dirname(join(root, path)), { recursive: true });
    await Deno.writeTextFile(join(root, path), text);
  }
  return root;
}

/** Whether `node --test [files]` passes in `root`. */
export async function testsPass(root: string, files: string[] = []): Promise<boolean> {
  const { success } = await new Deno.Command("node", {
    args: ["--test", ...files],
    cwd: root,
    stdout: "null",
    stderr: "null",
  })
    .output();
  return success;
}
