/**
 * Stands in for the gateway process: connects the ServerConfig[] given as JSON in `HOST_CONFIG`, prints
 * `{ "<name>": <pid> }` on one stdout line, then stays up until killed.
 * @module
 */
import { Downstreams } from "../../../../mcp/gateway/downstream.ts";
import type { ServerConfig } from "../../../../mcp/gateway/types.ts";

const configs: ServerConfig[] = JSON.parse(Deno.env.get("HOST_CONFIG") ?? "[]");
const downstreams = new Downstreams(configs);
await downstreams.start();
const pids = Object.fromEntries(configs.map((config) => [config.name, downstreams.pidOf(config.name)]));
await Deno.stdout.write(new TextEncoder().encode(JSON.stringify(pids) + "\n"));
