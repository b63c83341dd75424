/**
 * The one place that imports the MCP SDK. Under Deno the SDK's `.js` subpaths would silently type as
 * `any`; each `@ts-types` names the extension-less subpath, which the package's `"./*"` export maps to
 * its declaration file, so `deno check` really checks our use of it, with or without a node_modules
 * folder (JSR consumers). tests/sdk_types_test.ts fails to type-check if these ever degrade to `any`.
 */
// @ts-types="@modelcontextprotocol/sdk/server/index"
export { Server } from "@modelcontextprotocol/sdk/server/index.js";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
export { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
export { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/client/index"
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
export { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
// @ts-types="@modelcontextprotocol/sdk/shared/protocol"
export type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
export type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="@modelcontextprotocol/sdk/server/auth/types"
export type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export {
  CallToolRequestSchema,
  CallToolResultSchema,
  CompleteRequestSchema,
  CreateMessageResultSchema,
  ElicitResultSchema,
  ErrorCode as RpcErrorCode,
  GetPromptRequestSchema,
  isInitializeRequest,
  JSONRPCMessageSchema,
  LATEST_PROTOCOL_VERSION,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export type {
  CallToolResult,
  JSONRPCMessage,
  LoggingLevel,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  ServerNotification,
  ServerRequest,
  Tool,
} from "@modelcontextprotocol/sdk/types.js";
