/**
 * src/sdk.ts points every SDK import at its declaration file. If one ever degraded to `any`, the
 * type-level checks below would stop compiling (`deno check` / `deno test` fail), and the runtime checks
 * make sure each export is the real thing.
 */
import assert from "node:assert/strict";
import {
  CallToolRequestSchema,
  type CallToolResult,
  Client,
  InMemoryTransport,
  McpError,
  type RequestHandlerExtra,
  Server,
  type ServerNotification,
  type ServerRequest,
  StdioServerTransport,
  type Tool,
  WebStandardStreamableHTTPServerTransport,
} from "../src/sdk.ts";
import { StdioClientTransport, StreamableHTTPClientTransport } from "./e2e/sdk_client.ts";

type IsAny<T> = 0 extends 1 & T ? true : false;
type NotAny<T> = IsAny<T> extends true ? never : true;

const typed: NotAny<Server>[] = [true];
const typedToo: [
  NotAny<Client>,
  NotAny<typeof CallToolRequestSchema>,
  NotAny<CallToolResult>,
  NotAny<Tool>,
  NotAny<RequestHandlerExtra<ServerRequest, ServerNotification>>,
  NotAny<WebStandardStreamableHTTPServerTransport>,
  NotAny<StdioServerTransport>,
  NotAny<StdioClientTransport>,
  NotAny<StreamableHTTPClientTransport>,
  NotAny<InMemoryTransport>,
] = [true, true, true, true, true, true, true, true, true, true];

Deno.test("the SDK barrel exports typed, real classes and schemas", () => {
  assert.equal(typed.length + typedToo.length, 11);
  for (const value of [Server, Client, McpError, InMemoryTransport, StdioClientTransport]) {
    assert.equal(typeof value, "function");
  }
  assert.equal(CallToolRequestSchema.safeParse({ method: "tools/call", params: { name: "x" } }).success, true);
  // @ts-expect-error: a typed Server rejects an unknown method; `any` would accept it silently.
  assert.equal(typeof new Server({ name: "t", version: "1" }).notAMethod, "undefined");
});
