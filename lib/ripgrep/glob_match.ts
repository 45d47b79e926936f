/**
 * One glob matched against a `/`-separated path in linear time: `*` and `?` stay within a path part, `**`
 * spans parts, `[a-z]`/`[!a-z]` classes, `{a,b}` alternatives, `\` escapes. It runs the glob as an NFA over
 * a set of states, never by backtracking: a JavaScript regex would take exponential time on a glob like
 * `*a*a*a*a*a*a*a*a*a*a*b`, and the glob comes from the model.
 * @module
 */

type Token =
  | { kind: "char"; char: string }
  | { kind: "any" }
  | { kind: "class"; negated: boolean; ranges: Array<[number, number]> }
  | { kind: "star" }
  /** `**` at the end: anything, `/` included. */
  | { kind: "all" }
  /** `**\/`: zero or more whole path parts. */
  | { kind: "parts" };

/** A parsed glob: tokens, or alternatives of token sequences. */
type Item = Token | { kind: "alt"; options: Item[][] };

/** Why a glob cannot be parsed; the caller words the error. */
export class GlobSyntaxError extends Error {}

const MAX_ALTERNATIVES = 1024;

/** A matcher for `glob` (already in its anchored, `/`-separated form). */
export function compileGlob(glob: string): (path: string) => boolean {
  const sequences = expand(parse(glob));
  return (path) => sequences.some((tokens) => run(tokens, path));
}

function parse(glob: string): Item[] {
  const stack: Item[][][] = [];
  let current: Item[] = [];
  const chars = Array.from(glob);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === "\\") {
      if (++i >= chars.length) throw new GlobSyntaxError('dangling "\\"');
      current.push({ kind: "char", char: chars[i] });
    } else if (c === "*" && chars[i + 1] === "*") {
      const atStart = i === 0 || chars[i - 1] === "/";
      if (atStart && chars[i + 2] === "/") {
        current.push({ kind: "parts" });
        i += 2;
      } else {
        current.push({ kind: atStart && i + 2 === chars.length ? "all" : "star" });
        i += 1;
      }
    } else if (c === "*") current.push({ kind: "star" });
    else if (c === "?") current.push({ kind: "any" });
    else if (c === "[") i = parseClass(chars, i, current);
    else if (c === "{") {
      stack.push([current]);
      current = [];
    } else if (c === "," && stack.length) {
      stack.at(-1)!.push(current);
      current = [];
    } else if (c === "}" && stack.length) {
      const options = stack.pop()!;
      options.push(current);
      current = options.shift()!;
      current.push({ kind: "alt", options });
    } else current.push({ kind: "char", char: c });
  }
  if (stack.length) throw new GlobSyntaxError('unclosed alternate group; missing "}"');
  return current;
}

/** Parses `[...]` starting at `start`; returns the index of its `]`. */
function parseClass(chars: string[], start: number, out: Item[]): number {
  let i = start + 1;
  const negated = chars[i] === "!" || chars[i] === "^";
  if (negated) i++;
  const ranges: Array<[number, number]> = [];
  // A `]` right after the opening is a literal member.
  for (let first = true; i < chars.length && (first || chars[i] !== "]"); i++, first = false) {
    const from = chars[i].codePointAt(0)!;
    if (chars[i + 1] === "-" && i + 2 < chars.length && chars[i + 2] !== "]") {
      ranges.push([from, chars[i + 2].codePointAt(0)!]);
      i += 2;
    } else ranges.push([from, from]);
  }
  if (i >= chars.length) throw new GlobSyntaxError('unclosed character class; missing "]"');
  out.push({ kind: "class", negated, ranges });
  return i;
}

function expand(items: Item[]): Token[][] {
  let sequences: Token[][] = [[]];
  for (const item of items) {
    if (item.kind !== "alt") {
      for (const sequence of sequences) sequence.push(item);
      continue;
    }
    const tails = item.options.flatMap(expand);
    sequences = sequences.flatMap((head) => tails.map((tail) => [...head, ...tail]));
    if (sequences.length > MAX_ALTERNATIVES) {
      throw new GlobSyntaxError(`more than ${MAX_ALTERNATIVES} alternatives`);
    }
  }
  return sequences;
}

/**
 * NFA simulation. State 2i: before token i; state 2i+1: inside a `parts` token i, past at least one
 * character of the part(s) it is consuming.
 */
function run(tokens: Token[], path: string): boolean {
  let states = closure(tokens, [0]);
  for (const c of path) {
    const next: number[] = [];
    for (const state of states) step(tokens, state, c, next);
    if (next.length === 0) return false;
    states = closure(tokens, next);
  }
  return states.has(2 * tokens.length);
}

function step(tokens: Token[], state: number, c: string, next: number[]): void {
  const i = state >> 1;
  const token = tokens[i];
  if (!token) return;
  const after = 2 * (i + 1);
  switch (token.kind) {
    case "char":
      if (c === token.char) next.push(after);
      return;
    case "any":
      if (c !== "/") next.push(after);
      return;
    case "class": {
      const code = c.codePointAt(0)!;
      const inside = token.ranges.some(([from, to]) => code >= from && code <= to);
      if (c !== "/" && inside !== token.negated) next.push(after);
      return;
    }
    case "star":
      if (c !== "/") next.push(state);
      return;
    case "all":
      next.push(state);
      return;
    case "parts":
      next.push(2 * i + 1);
      if (c === "/") next.push(after);
      return;
  }
}

/** Adds the states reachable without a character: past a `*`, `**` or `**\/` that matches nothing. */
function closure(tokens: Token[], start: number[]): Set<number> {
  const states = new Set<number>();
  const work = [...start];
  while (work.length) {
    const state = work.pop()!;
    if (states.has(state)) continue;
    states.add(state);
    const token = tokens[state >> 1];
    const before = state % 2 === 0;
    if (before && token && (token.kind === "star" || token.kind === "all" || token.kind === "parts")) {
      work.push(2 * ((state >> 1) + 1));
    }
  }
  return states;
}
