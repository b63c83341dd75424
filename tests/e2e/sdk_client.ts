/**
 * SDK client transports for tests. They live outside src/sdk.ts on purpose: the stdio client pulls in
 * cross-spawn, which reads environment variables at import time, and production code (whose permission
 * sets grant only the server's own variables) must never load it.
 */
export { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
export { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
