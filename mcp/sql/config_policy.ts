/**
 * Which settings of a workspace `.sqruff` / `.sqlfluff` reach the backend. A cloned repository writes
 * that file, and both backends can be told there to import code: the jinja templater's `library_path`
 * (sqlfluff) / `library_paths` (sqruff's PyPI build) imports a folder's `__init__.py`, and the python, dbt
 * and sqlmesh templaters run Python or whole projects. So only the settings below pass: style (rules,
 * capitalisation, layout, indentation, line length), error filters, size limits, and the `raw` and
 * `placeholder` templaters, which only substitute text. The lists are the settings sqlfluff 1.4 and 4.x
 * and sqruff 0.44 document; none of them names a file.
 * @module
 */

/** Settings of the core `[sqlfluff]` / `[sqruff]` section passed on as they are. */
const CORE = new Set([
  "dialect",
  "templater",
  "rules",
  "exclude_rules",
  "ignore",
  "warnings",
  "warn_unused_ignores",
  "ignore_templated_areas",
  "encoding",
  "disable_noqa",
  "disable_noqa_except",
  "sql_file_exts",
  "fix_even_unparsable",
  "large_file_skip_byte_limit",
  "large_file_skip_char_limit",
  "large_file_skip_fail",
  "max_line_length",
  "runaway_limit",
  "max_parse_depth",
  "max_parse_nodes",
  "render_variant_limit",
  "indent_unit",
  "tab_space_size",
]);

/** Core settings about the CLI's own output and processes, which the server decides: left out. */
const SERVER_OWNED = new Set(["verbose", "nocolor", "output_line_length", "processes", "recurse"]);

/** The templaters that substitute text and nothing else. */
export const SAFE_TEMPLATERS: readonly string[] = ["raw", "placeholder"];

const INDENTATION = new Set([
  "indent_unit",
  "tab_space_size",
  "indented_joins",
  "indented_ctes",
  "indented_using_on",
  "indented_on_contents",
  "indented_then",
  "indented_then_contents",
  "implicit_indents",
  "allow_implicit_indents",
  "template_blocks_indent",
  "skip_indentation_in",
  "skip_implicit_indents_in",
  "trailing_comments",
  "ignore_comment_lines",
  "hanging_indents",
]);

const LAYOUT = new Set([
  "spacing_before",
  "spacing_after",
  "spacing_within",
  "line_position",
  "align_within",
  "align_scope",
  "keyword_line_position",
  "keyword_line_position_exclusions",
]);

/** Rule options, valid in `[…:rules]` (sqlfluff 1.x reads them there too) and `[…:rules:<rule>]`. */
const RULE_OPTIONS = new Set([
  "tab_space_size",
  "max_line_length",
  "indent_unit",
  "comma_style",
  "hanging_indents",
  "allow_scalar",
  "single_table_references",
  "force_enable",
  "unquoted_identifiers_policy",
  "quoted_identifiers_policy",
  "capitalisation_policy",
  "extended_capitalisation_policy",
  "select_clause_trailing_comma",
  "ignore_comment_lines",
  "ignore_comment_clauses",
  "ignore_words",
  "ignore_words_regex",
  "forbid_subquery_in",
  "prefer_count_1",
  "prefer_count_0",
  "operator_new_lines",
  "aliasing",
  "alias_case_check",
  "fully_qualify_join_types",
  "multiline_newline",
  "require_final_semicolon",
  "group_by_and_order_by_style",
  "allow_space_in_identifier",
  "additional_allowed_characters",
  "prefer_quoted_identifiers",
  "prefer_quoted_keywords",
  "prefer_quoted_keyword_style",
  "blocked_words",
  "blocked_regex",
  "match_source",
  "case_sensitive",
  "preferred_quoted_literal_style",
  "preferred_type_casting_style",
  "preferred_not_equal_style",
  "preferred_first_table_in_join_clause",
  "min_alias_length",
  "max_alias_length",
  "wildcard_policy",
  "single_target_policy",
  "subqueries_ignore_external_references",
  "maximum_empty_lines_between_statements",
  "maximum_empty_lines_inside_statements",
  "maximum_empty_lines_between_batches",
]);

/** What becomes of one setting: passed on, left out, or refused with the reason. */
export type Verdict = { pass: true } | { drop: true } | { refuse: string };

const PASS: Verdict = { pass: true };
const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
const RULE_ID = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$/;
const PATH_KEY = /_(path|paths|dir|dirs)$/;

/** Whether a section is a backend's at all: sections of other tools are left out. */
export function isBackendSection(name: string): boolean {
  return /^(sqlfluff|sqruff)(:|$)/i.test(name.trim());
}

/** The verdict on `key = value` in section `section` (a backend's section, any case). */
export function judgeSetting(section: string, key: string, value: string): Verdict {
  const parts = section.toLowerCase().split(":").map((part) => part.trim()).slice(1);
  const name = key.toLowerCase();
  const why = codeReason(parts, name);
  if (why) return { refuse: why };
  // sqlfluff >= 3 nests `a.b = x` into section `a`: `[sqlfluff:templater] jinja.library_path` would
  // land in the jinja section.
  if (!IDENTIFIER.test(name)) {
    return {
      refuse:
        "only plain names (letters, digits, _) are allowed: sqlfluff nests dotted keys into other sections",
    };
  }
  const [kind, ...rest] = parts;
  if (kind === undefined) {
    if (name === "templater" && !SAFE_TEMPLATERS.includes(value.trim().toLowerCase())) {
      return { refuse: "that templater can run code; use raw or placeholder" };
    }
    return CORE.has(name) ? PASS : SERVER_OWNED.has(name) ? { drop: true } : unknown();
  }
  if (kind === "indentation" && !rest.length) return INDENTATION.has(name) ? PASS : unknown();
  if (kind === "layout" && rest.length === 2 && rest[0] === "type" && IDENTIFIER.test(rest[1])) {
    return LAYOUT.has(name) ? PASS : unknown();
  }
  if (kind === "rules" && (!rest.length || (rest.length === 1 && RULE_ID.test(rest[0])))) {
    return RULE_OPTIONS.has(name) ? PASS : unknown();
  }
  if (kind === "templater" && !rest.length) return name === "unwrap_wrapped_queries" ? PASS : unknown();
  // Placeholder parameters are names of the user's choosing; their values are substituted as text.
  if (kind === "templater" && rest.length === 1 && rest[0] === "placeholder") return PASS;
  if (kind === "dialect" && rest.length === 1 && IDENTIFIER.test(rest[0])) {
    // Dialect feature switches (sqruff's postgres `pgvector = true`).
    return /^(true|false)$/i.test(value.trim()) ? PASS : { refuse: "dialect switches take true or false" };
  }
  return { refuse: "the section is not one the sql server passes on" };
}

/** Why a setting could load code or files, or undefined when it cannot. */
function codeReason(parts: string[], name: string): string | undefined {
  if (name === "library_path" || name === "library_paths") return "it imports Python code from a folder";
  if (name === "load_macros_from_path") return "it loads macro files";
  if (PATH_KEY.test(name)) return "it names a file or folder for the backend to open";
  if (parts[0] === "templater" && parts.length > 1 && parts[1] !== "placeholder") {
    return `it configures the ${parts[1]} templater, which can run code`;
  }
  return undefined;
}

function unknown(): Verdict {
  return { refuse: "it is not on the sql server's list of safe settings" };
}
