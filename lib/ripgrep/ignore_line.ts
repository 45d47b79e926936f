/**
 * One line of an ignore file as a rule that is cheap to test on every listed file: gitignore's reading of
 * it (glob_filter.ts compiles it), but a line that names files by their name alone (`node_modules/`,
 * `*.log`, `**\/cache`, `.env*`) is tested on the name with a string comparison, and a line anchored where
 * the walk never goes is dropped. The glob automaton is left for the rest.
 * @module
 */
import { compile } from "./glob_filter.ts";
import { compileGlob } from "./glob_match.ts";

/** One line of an ignore file. */
export interface IgnoreLine {
  /** A `!` line: it brings back what an earlier line ignored. */
  whitelist: boolean;
  /** It ends with `/`: it matches folders only. */
  dirOnly: boolean;
  /** Tested on the name alone (a line without `/` matches at any depth), else on the path from its folder. */
  onName: boolean;
  /** For a path line: the literal start every path it matches has (before the first wildcard). */
  prefix: string;
  test: (nameOrPath: string) => boolean;
}

const WILD = /[*?[{\\]/;

/** Reads one line (not blank, not a comment); a malformed glob throws as glob_filter's `compile` does. */
export function ignoreLine(line: string): IgnoreLine {
  const glob = compile(line);
  const rule = { whitelist: glob.exclude, dirOnly: glob.dirOnly };
  let body = line.replace(/^\\?!/, (bang) => bang === "!" ? "" : "!").replace(/\/+$/, "");
  // `**/name` is `name` at any depth, like a line without `/`.
  if (body.startsWith("**/") && !body.slice(3).includes("/")) body = body.slice(3);
  if (body.includes("/")) {
    const path = body.replace(/^\//, "");
    const wild = path.search(WILD);
    return { ...rule, onName: false, prefix: wild < 0 ? path : path.slice(0, wild), test: glob.test };
  }
  return { ...rule, onName: true, prefix: "", test: nameTest(body) };
}

/** Whether `line` can match anything under `down`, the walked folder's path from the line's folder. */
export function reachesUnder(line: IgnoreLine, down: string): boolean {
  if (line.onName) return true;
  const under = `${down}/`;
  return line.prefix.startsWith(under) || under.startsWith(line.prefix);
}

function nameTest(glob: string): (name: string) => boolean {
  if (!WILD.test(glob)) return (name) => name === glob;
  const rest = glob.slice(1);
  if (glob.startsWith("*") && !WILD.test(rest)) return (name) => name.endsWith(rest);
  const head = glob.slice(0, -1);
  if (glob.endsWith("*") && !WILD.test(head)) return (name) => name.startsWith(head);
  return compileGlob(glob);
}
