/**
 * A strict YAML reader for the tests: PyYAML's `safe_load` (YAML 1.1, refuses control characters), run by
 * python3. Its absence skips only the tests that need it; the printable-text checks run everywhere.
 * @module
 */

const SCRIPT = `
import json, sys, yaml
def plain(value):
    if isinstance(value, dict): return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list): return [plain(v) for v in value]
    return value if isinstance(value, str) else f"<{type(value).__name__} {value}>"
out = []
for text in json.load(sys.stdin):
    try:
        out.append({"value": plain(yaml.safe_load(text))})
    except yaml.YAMLError as error:
        out.append({"error": str(error).splitlines()[0]})
json.dump(out, sys.stdout)
`;

/** Whether python3 with PyYAML can be run here. */
export const hasPyYaml = await new Deno.Command("python3", { args: ["-c", "import yaml"], stderr: "null" })
  .output().then((result) => result.success, () => false);

/** Each YAML text as PyYAML reads it (what is not a string as `<type value>`), or its error's first line. */
export async function loadStrictYaml(texts: string[]): Promise<({ value: unknown } | { error: string })[]> {
  const child = new Deno.Command("python3", { args: ["-c", SCRIPT], stdin: "piped", stdout: "piped" })
    .spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify(texts)));
  await writer.close();
  const { success, stdout } = await child.output();
  if (!success) throw new Error("python3 could not run the YAML reader");
  return JSON.parse(new TextDecoder().decode(stdout));
}

/** The front matter block of a note file, between its `---` lines. */
export function frontMatterOf(file: string): string {
  const match = /^---\n([^]*?\n)---\n/.exec(file);
  if (!match) throw new Error(`no front matter in ${JSON.stringify(file.slice(0, 80))}`);
  return match[1];
}

/** Characters no YAML reader accepts raw (C0 but tab and LF, DEL, C1) or reads as line breaks (NEL, LS, PS). */
// deno-lint-ignore no-control-regex -- finding control characters is the point
export const NOT_YAML_TEXT = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]/;
