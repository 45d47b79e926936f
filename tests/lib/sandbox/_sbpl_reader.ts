/**
 * A reader for the SBPL the Seatbelt engine writes, as TinyScheme reads it: strings (`\\` and `\"` escapes,
 * every other byte kept), parentheses, atoms, `;` comments. The tests check with it that every path comes
 * back exactly and that parentheses balance, and run each regex through JavaScript's engine (the same
 * syntax for the subset written: anchors, brackets, groups, alternation, `?`, `.*`).
 */

/** A parsed expression: a list, a string, or an atom. */
export type Sexp = Sexp[] | { string: string } | string;

/** Parses the whole profile into its top-level expressions; throws on an unbalanced or unterminated one. */
export function readProfile(text: string): Sexp[] {
  const stack: Sexp[][] = [[]];
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (char === ";") {
      while (at < text.length && text[at] !== "\n") at++;
    } else if (char === "(") stack.push([]);
    else if (char === ")") {
      const done = stack.pop();
      if (!done || !stack.length) throw new Error(`Unbalanced ")" at ${at}`);
      stack.at(-1)!.push(done);
    } else if (char === '"') {
      let value = "";
      for (at++; text[at] !== '"'; at++) {
        if (at >= text.length) throw new Error("Unterminated string");
        value += text[at] === "\\" ? text[++at] : text[at];
      }
      stack.at(-1)!.push({ string: value });
    } else if (!/\s/.test(char)) {
      let atom = "";
      while (at < text.length && !/[\s()";]/.test(text[at])) atom += text[at++];
      at--;
      stack.at(-1)!.push(atom);
    }
  }
  if (stack.length !== 1) throw new Error(`${stack.length - 1} unclosed "("`);
  return stack[0];
}

/** The rules `(verb … filters)` whose head is `verb` and whose operations include `operation`. */
export function rulesOf(profile: Sexp[], verb: "allow" | "deny", operation: string): Sexp[][] {
  return profile.filter((rule): rule is Sexp[] =>
    Array.isArray(rule) && rule[0] === verb && rule.slice(1).some((part) => part === operation)
  );
}

/** The strings of `(kind "…")` filters directly in `rule`. */
export function filterValues(rule: Sexp[], kind: "regex" | "subpath" | "literal"): string[] {
  return rule.flatMap((part) =>
    Array.isArray(part) && part[0] === kind && typeof part[1] === "object" && !Array.isArray(part[1])
      ? [part[1].string]
      : []
  );
}

/** Whether a rule matches `path` through one of its regex, subpath or literal filters. */
export function ruleMatches(rule: Sexp[], path: string): boolean {
  if (filterValues(rule, "regex").some((source) => new RegExp(source, "u").test(path))) return true;
  if (filterValues(rule, "literal").includes(path)) return true;
  return filterValues(rule, "subpath").some((root) => path === root || path.startsWith(`${root}/`));
}

/**
 * Whether the last rule naming one of `operations` (`file-write*` and `file-write-unlink` for a delete) that
 * matches `path` is an allow: Seatbelt's later rule wins, and `(deny default)` starts it at no.
 */
export function allowed(profile: Sexp[], operations: readonly string[], path: string): boolean {
  let verdict = false;
  for (const rule of profile) {
    if (!Array.isArray(rule) || !rule.slice(1).some((part) => operations.includes(part as string))) continue;
    const bare = rule.length === 2; // `(allow file-read*)`: every path.
    if (bare || ruleMatches(rule, path)) verdict = rule[0] === "allow";
  }
  return verdict;
}
