/**
 * src/sdk.ts is the one SDK barrel. If an export ever degraded to `any` (a broken declaration path, a
 * missing package), the type-level checks below stop compiling (`deno check` / `deno test` fail), and
 * the runtime checks make sure each export is the real thing.
 */
import assert from "node:assert/strict";
import {
  type CallToolResult,
  createMcpHandler,
  isLegacyRequest,
  type McpHttpHandler,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type ServerContext,
  serveStdio,
  StdioServerTransport,
  type Tool,
  WebStandardStreamableHTTPServerTransport,
} from "../src/sdk.ts";
import { Client, InMemoryTransport } from "../src/sdk_client.ts";
import { StdioClientTransport, StreamableHTTPClientTransport } from "./e2e/sdk_client.ts";

type IsAny<T> = 0 extends 1 & T ? true : false;
type NotAny<T> = IsAny<T> extends true ? never : true;

const typed: NotAny<Server>[] = [true];
const typedToo: [
  NotAny<Client>,
  NotAny<typeof createMcpHandler>,
  NotAny<McpHttpHandler>,
  NotAny<typeof serveStdio>,
  NotAny<CallToolResult>,
  NotAny<Tool>,
  NotAny<ServerContext>,
  NotAny<WebStandardStreamableHTTPServerTransport>,
  NotAny<StdioServerTransport>,
  NotAny<StdioClientTransport>,
  NotAny<StreamableHTTPClientTransport>,
  NotAny<InMemoryTransport>,
] = [true, true, true, true, true, true, true, true, true, true, true, true];

Deno.test("the SDK barrel exports typed, real classes and functions", () => {
  assert.equal(typed.length + typedToo.length, 13);
  for (const value of [Server, Client, ProtocolError, InMemoryTransport, StdioClientTransport, isLegacyRequest]) {
    assert.equal(typeof value, "function");
  }
  assert.equal(ProtocolErrorCode.UnsupportedProtocolVersion, -32022);
  // @ts-expect-error: a typed Server rejects an unknown method; `any` would accept it silently.
  assert.equal(typeof new Server({ name: "t", version: "1" }).notAMethod, "undefined");
});
