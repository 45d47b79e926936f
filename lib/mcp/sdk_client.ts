/**
 * The client half of the MCP SDK adapter: what talks to a server (the gateway's downstreams, tests,
 * benches, tools). Kept apart from `sdk.ts` so a server's cold start never loads client code it does not
 * use (Client, the stdio spawner and its `cross-spawn`). With `sdk.ts`, the only modules that import the SDK.
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/client/index"
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
export { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
export { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
