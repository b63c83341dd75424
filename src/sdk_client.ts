/**
 * The MCP SDK's client side, for tests, benchmarks and scripts that talk to the server in-process. Kept out
 * of src/sdk.ts so the server's own import graph (mod.ts, the bundle, the compiled binary) never loads the
 * client package.
 */
export { Client, InMemoryTransport } from "npm:@modelcontextprotocol/client@2.4.0";
