/**
 * The deterministic corpus the search benchmark runs on, generated into the gitignored `bench/.corpus/`:
 * mixed-language source files (seeded PRNG, same bytes on every machine), a `.gitignore`d `build/` folder
 * of minified stylesheets, a `.git/` marker so ripgrep applies the ignore rules as in a checkout.
 * Imported by bench/search.ts.
 * Planted needles: `XYZZY_SELECTIVE` in 1 of every 2,500 files (selective), `FIXME` on ~1% of lines (100k+).
 * @module
 */
import { join } from "node:path";
import { REPO_ROOT } from "../../tools/catalog.ts";

/** Corpus shape. */
export interface CorpusOptions {
  files: number;
  /** Mean lines per source file (a line averages ~40 bytes). */
  meanLines: number;
  /** Minified bundles in the ignored build folder. */
  buildFiles: number;
}

/** A generated corpus. */
export interface Corpus {
  root: string;
  files: number;
  bytes: number;
}

/** The size: ~50k files, ~500 MB. */
export const FULL: CorpusOptions = { files: 50_000, meanLines: 180, buildFiles: 1_000 };

// No .ts/.js files: `deno check bench/` would try to type-check the corpus.
const LANGS = [
  { ext: "kt", weight: 30, line: (w: () => string) => `    val ${w()} = ${w()}(${w()}, ${w()}.${w()})` },
  { ext: "py", weight: 20, line: (w: () => string) => `    ${w()} = self.${w()}(${w()}, ${w()}=${w()})` },
  { ext: "go", weight: 15, line: (w: () => string) => `\t${w()} := ${w()}.${w()}(${w()}, ${w()})` },
  { ext: "rs", weight: 10, line: (w: () => string) => `    let ${w()} = ${w()}::${w()}(&${w()});` },
  { ext: "java", weight: 10, line: (w: () => string) => `        ${w()}.${w()}(${w()}.get${w()}());` },
  { ext: "md", weight: 10, line: (w: () => string) => `The ${w()} ${w()} of the ${w()} ${w()} is ${w()}.` },
  { ext: "json", weight: 5, line: (w: () => string) => `  "${w()}": "${w()}-${w()}",` },
];

const WORDS = (
  "alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega value result config handler request " +
  "response buffer stream parser token index cursor record entry table column schema module export client " +
  "server socket packet message event listener callback promise future worker thread queue cache store " +
  "render layout widget button input output reader writer builder factory adapter bridge proxy router"
).split(" ");

/** Returns the corpus, generating it first if missing or of another shape. */
export async function ensureCorpus(options: CorpusOptions = FULL, log = (_: string) => {}): Promise<Corpus> {
  const root = join(
    REPO_ROOT,
    "bench",
    ".corpus",
    `v3-${options.files}-${options.meanLines}-${options.buildFiles}`,
  );
  const stamp = join(root, ".complete");
  try {
    return JSON.parse(await Deno.readTextFile(stamp));
  } catch {
    // Not generated yet.
  }
  await Deno.remove(root, { recursive: true }).catch(() => {});
  log(`generating ${options.files} files into ${root} ...`);
  const started = performance.now();
  const random = mulberry32(42);
  const word = () =>
    WORDS[Math.floor(random() * WORDS.length)] + (random() < 0.3 ? String(Math.floor(random() * 100)) : "");
  const pools = LANGS.map((lang) =>
    Array.from(
      { length: 4_000 },
      (_, i) => (i % 75 === 7 ? `${lang.line(word)} // FIXME ${word()}` : lang.line(word)),
    )
  );
  const totalWeight = LANGS.reduce((sum, l) => sum + l.weight, 0);
  await Deno.mkdir(join(root, ".git"), { recursive: true });
  await Deno.writeTextFile(join(root, ".git", "HEAD"), "ref: refs/heads/main\n");
  await Deno.writeTextFile(join(root, ".gitignore"), "build/\n*.log\n");
  let bytes = 0;
  const jobs: Array<() => Promise<void>> = [];
  for (let i = 0; i < options.files; i++) {
    let pick = random() * totalWeight;
    const langIndex = LANGS.findIndex((l) => (pick -= l.weight) < 0);
    const lang = LANGS[langIndex];
    const pool = pools[langIndex];
    const lineCount = Math.max(5, Math.round(options.meanLines * (0.4 + random() * 1.2)));
    const lines: string[] = [];
    for (let l = 0; l < lineCount; l++) lines.push(pool[Math.floor(random() * pool.length)]);
    if (i % 2_500 === 1_234) lines[Math.floor(lineCount / 2)] += " XYZZY_SELECTIVE";
    const text = lines.join("\n") + "\n";
    bytes += text.length;
    const dir = join(root, `pkg${i % 50}`, "src", WORDS[(i >> 3) % WORDS.length] + (i % 7));
    const path = join(dir, `${word()}_${i}.${lang.ext}`);
    jobs.push(async () => {
      await Deno.mkdir(dir, { recursive: true });
      await Deno.writeTextFile(path, text);
    });
  }
  for (let i = 0; i < options.buildFiles; i++) {
    const parts: string[] = [];
    for (let p = 0; p < 2_000; p++) parts.push(`.${word()}{${word()}:${word()}}`);
    if (i % 100 === 0) parts.push(".XYZZY_SELECTIVE{x:y}");
    const text = parts.join("") + "\n";
    bytes += text.length;
    const path = join(root, "build", `chunk${i}.min.css`);
    jobs.push(async () => {
      await Deno.mkdir(join(root, "build"), { recursive: true });
      await Deno.writeTextFile(path, text);
    });
  }
  await runLimited(jobs, 16);
  const corpus: Corpus = { root, files: options.files + options.buildFiles, bytes };
  await Deno.writeTextFile(stamp, JSON.stringify(corpus));
  log(
    `generated ${corpus.files} files, ${(bytes / 1e6).toFixed(0)} MB in ${
      ((performance.now() - started) / 1000).toFixed(1)
    } s`,
  );
  return corpus;
}

async function runLimited(jobs: Array<() => Promise<void>>, concurrency: number): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < jobs.length) await jobs[next++]();
  }));
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
