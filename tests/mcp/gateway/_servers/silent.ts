/** A "server" that reads stdin and never answers, not even initialize. */
await Deno.stdin.readable.pipeTo(new WritableStream());
