/** The toolkit's version, from deno.json, reported by every server. */
import meta from "../deno.json" with { type: "json" };

/** Version string of every server in this toolkit. */
export const VERSION: string = meta.version;
