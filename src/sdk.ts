/**
 * The one place that imports the MCP SDK (v2: `@modelcontextprotocol/server`, `/client`). Every other
 * module imports from here, so an SDK upgrade touches one file and tests/sdk_types_test.ts proves the
 * exports stay typed (never `any`). The client half is for tests, benchmarks and scripts; its stdio
 * transport lives in tests/e2e/sdk_client.ts because it reads environment variables at import time.
 */
export {
  acceptedContent,
  CLIENT_CAPABILITIES_META_KEY,
  createMcpHandler,
  createRequestStateCodec,
  InMemoryServerEventBus,
  inputRequired,
  isInitializeRequest,
  isLegacyRequest,
  LATEST_PROTOCOL_VERSION,
  LOG_LEVEL_META_KEY,
  parseJSONRPCMessage,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  SUPPORTED_PROTOCOL_VERSIONS,
  WebStandardStreamableHTTPServerTransport,
} from "npm:@modelcontextprotocol/server@2.4.0";
export type {
  AuthInfo,
  CallToolResult,
  DiscoverResult,
  GetPromptResult,
  HandlerResultTypeMap,
  InputRequests,
  JSONRPCMessage,
  LoggingLevel,
  McpHttpHandler,
  McpRequestContext,
  ReadResourceResult,
  ServerCapabilities,
  ServerContext,
  ServerNotification,
  ServerNotifier,
  Tool,
  Transport,
} from "npm:@modelcontextprotocol/server@2.4.0";
export { serveStdio, StdioServerTransport } from "npm:@modelcontextprotocol/server@2.4.0/stdio";

/** The 2026 revision this server speaks beside the 2025 ones (`initialize`); served statelessly. */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";
/** The 2025 revision `initialize` negotiates by default. */
export const LEGACY_PROTOCOL_VERSION = "2025-11-25";
