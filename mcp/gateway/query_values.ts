/**
 * Values an agent writes into a query ("refund order 1042", "look up jane@acme.io", "how big is
 * package.json") are arguments for the tool, not words its text uses: each is read as the kind of value
 * it is (a number is nothing, an email address "email", a file name "file" and its extension).
 * @module
 */

/**
 * File extensions that say a word is a file name (`package.json`, `schema.sql`), not an identifier, each
 * with the word the file's kind adds when a tool may be for that kind ("lint schema.sql" wants SQL).
 */
const EXTENSIONS: ReadonlyMap<string, string | undefined> = new Map([
  ...[
    "json",
    "jsonc",
    "yaml",
    "yml",
    "toml",
    "xml",
    "tsv",
    "txt",
    "ts",
    "tsx",
    "js",
    "jsx",
    "mjs",
    "py",
    "rb",
  ]
    .map((ext) => [ext, undefined] as const),
  ...["go", "rs", "java", "kt", "swift", "c", "h", "cpp", "cs", "php", "sh", "html", "css", "log", "lock"]
    .map((ext) => [ext, undefined] as const),
  ...["env", "ini", "cfg", "conf", "zip", "tar", "gz"].map((ext) => [ext, undefined] as const),
  ["sql", "sql"],
  ["csv", "csv"],
  ["xlsx", "spreadsheet"],
  ["md", "markdown"],
  ["pdf", "pdf"],
  ["docx", "document"],
  ...["png", "jpg", "jpeg", "gif", "svg", "webp"].map((ext) => [ext, "image"] as const),
]);

/**
 * Days and times an agent names ("on Friday", "tomorrow", "at 3pm"): the arguments of a calendar or a
 * time filter, never words a tool's text uses, so they count as nothing rather than as unknown words.
 */
const DATE_WORDS: ReadonlySet<string> = new Set([
  "today",
  "tonight",
  "tomorrow",
  "yesterday",
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
  "sunday",
  "weekend",
  "morning",
  "afternoon",
  "evening",
  "midnight",
  "noon",
]);

/** Characters of a chunk that is classified (a longer one is prose or garbage: split as words). */
const MAX_VALUE_CHARS = 256;

/**
 * The words a query chunk (text between spaces) stands for when it is a value: [] for a number or an
 * issue number, ["email"] for an address, ["url"] for a web address, ["phone"], ["user"] for an @handle,
 * ["channel"] for a #channel, ["ip"], ["domain"] for a host name, ["region"] for a cloud region (`us-east-1`),
 * [] for a day or a time, ["file"] and maybe its kind for a file name, ["path"] for a path; undefined
 * for anything else.
 */
export function valueWords(chunk: string): string[] | undefined {
  if (chunk.length > MAX_VALUE_CHARS) return undefined;
  const value = chunk.replace(/^[("'`]+|[)"'`,;:!?.]+$/g, "");
  if (value === "") return undefined;
  if (/^\d{1,3}(?:\.\d{1,3}){3}(?:\/\d{1,2}|:\d{1,5})?$/.test(value)) return ["ip"];
  if (/^[#$]?\d+(?:[.,]\d+)*(?:%|[kKmMgGtT][bB]?)?$/.test(value)) return [];
  if (/^\d{1,2}(?::\d{2})?(?:am|pm)?$/i.test(value) || DATE_WORDS.has(value.toLowerCase())) return [];
  if (/^\+\d[\d\-.()]{6,}$/.test(value)) return ["phone"];
  if (/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test(value)) return ["email"];
  if (/^(?:https?:\/\/|www\.)\S+$/i.test(value) || /^localhost(?::\d+)?(?:\/\S*)?$/i.test(value)) {
    return ["url"];
  }
  if (/^[a-z]{2}-[a-z]+-\d$/.test(value)) return ["region"];
  if (/^@[\w.-]+$/.test(value)) return ["user"];
  if (/^#[a-z][\w-]*$/i.test(value)) return ["channel"];
  const extension = /^[\w~./\\-]*[\w-]\.([a-z0-9]{1,5})$/i.exec(value)?.[1]?.toLowerCase();
  if (extension !== undefined && EXTENSIONS.has(extension)) {
    const kind = EXTENSIONS.get(extension);
    return kind === undefined ? ["file"] : ["file", kind];
  }
  if (/^(?:~|\.{1,2})?\/[\w.~/-]*$/.test(value)) return ["path"];
  // `acme/api`, `feature/login`, `build/output`: a repository, branch or folder named as an argument.
  if (/^[\w.-]{3,}(?:\/[\w.-]{3,})+\/?$/.test(value)) return [];
  // A host name (`api.acme.io`), once file names are ruled out above: what DNS and web tools take.
  if (/^(?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d{1,5})?$/i.test(value)) return ["domain"];
  return undefined;
}
