/**
 * SDK client transports for tests. They live outside src/sdk.ts on purpose: the stdio client pulls in
 * cross-spawn, which reads environment variables at import time, and production code (whose permission
 * sets grant only the server's own variables) must never load it.
 */
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
export { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
export { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
