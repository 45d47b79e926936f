/**
 * The server half of the MCP SDK adapter; with `sdk_client.ts` (the client half), the only modules that
 * import the SDK. A server's entry loads this half alone, so its cold start pays for no client code. Under
 * Deno the SDK's `.js` subpath imports type-check as `any` (typescript-sdk issue 2701); each `@ts-types`
 * line restores the real declarations.
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/server/index"
export { Server } from "@modelcontextprotocol/sdk/server/index.js";
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
export { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/validation/ajv-provider"
export { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv-provider.js";
// @ts-types="@modelcontextprotocol/sdk/validation/types"
export type { JsonSchemaType, JsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export {
  CallToolRequestSchema,
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  JSONRPCMessageSchema,
  LATEST_PROTOCOL_VERSION,
  ListRootsRequestSchema,
  ListRootsResultSchema,
  ListToolsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  RootsListChangedNotificationSchema,
  SetLevelRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  ToolListChangedNotificationSchema,
  ToolSchema,
} from "@modelcontextprotocol/sdk/types.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export type {
  CallToolResult,
  ClientCapabilities,
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  Implementation,
  JSONRPCMessage,
  LoggingLevel,
  LoggingMessageNotification,
  RequestId,
  Root,
  ServerCapabilities,
  ServerNotification,
  ServerRequest,
  Tool,
  ToolAnnotations,
} from "@modelcontextprotocol/sdk/types.js";
// @ts-types="@modelcontextprotocol/sdk/shared/protocol"
export type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
export type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
