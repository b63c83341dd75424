import assert from "node:assert/strict";
import { startHttpServer } from "../../src/transports/http_server.ts";
import type { ServerExtension } from "../../src/server.ts";
import { testRuntime } from "../helpers/runtime.ts";
import { createHttpHandler } from "../../src/transports/http.ts";
import { blockingTool, callTool, INITIALIZE, rawRequest, readMessage } from "./http_helpers.ts";
import { modernRequest, readFinal } from "../protocol/modern_helpers.ts";

/** A session on a real socket: initialize, then POST messages with its id. */
async function connect(base: string) {
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const init = await fetch(`${base}/mcp`, { method: "POST", headers, body: JSON.stringify(INITIALIZE) });
  const session = init.headers.get("mcp-session-id")!;
  await readMessage(init);
  const post = (message: unknown) =>
    fetch(`${base}/mcp`, {
      method: "POST",
      headers: { ...headers, "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" },
      body: JSON.stringify(message),
    });
  (await post({ jsonrpc: "2.0", method: "notifications/initialized" })).body?.cancel();
  return post;
}

function serve(extension: ServerExtension, graceMs: number) {
  const runtime = testRuntime({ env: { MCP_AUTH_MODE: "none" } });
  return startHttpServer(runtime, { port: 0, graceMs, extension });
}

Deno.test("shutdown: a call unfinished after the grace period gets a JSON-RPC error on its stream", async () => {
  const block = blockingTool();
  const server = serve(block.extension, 10);
  const post = await connect(server.url);
  const call = await post(callTool(41, "test_block"));
  assert.equal(call.status, 200);
  await block.started;
  await server.shutdown();
  const answer = await readMessage(call);
  assert.equal(answer.id, 41);
  const error = answer.error as { code: number; message: string };
  assert.equal(error.code, -32000);
  assert.match(error.message, /shutting down.*send it again/);
  await server.finished;
});

Deno.test("shutdown: a call that finishes within the grace period gets its result", async () => {
  const block = blockingTool();
  const server = serve(block.extension, 60_000);
  const post = await connect(server.url);
  const call = await post(callTool(42, "test_block"));
  await block.started;
  const stopping = server.shutdown();
  block.release();
  const answer = await readMessage(call);
  assert.equal(answer.id, 42);
  assert.deepEqual(answer.result, { content: [{ type: "text", text: "released" }] });
  await stopping;
});

Deno.test("shutdown in stateless mode: a request still running gets a JSON-RPC error too", async () => {
  const block = blockingTool();
  const runtime = testRuntime({ env: { MCP_AUTH_MODE: "none", MCP_SESSION_MODE: "stateless" } });
  const handler = createHttpHandler(runtime, { reapIntervalMs: 0, extension: block.extension });
  try {
    const call = await handler.fetch(rawRequest(callTool(43, "test_block")));
    await block.started;
    await handler.close();
    const answer = await readMessage(call);
    assert.equal(answer.id, 43);
    assert.match((answer.error as { message: string }).message, /shutting down/);
  } finally {
    await runtime.close();
  }
});

/** A fetch that hangs until aborted; `started` resolves once `n` requests hang. */
function hangingFetch(n: number) {
  const started = Promise.withResolvers<void>();
  let seen = 0;
  const fetch = (request: Request) =>
    new Promise<Response>((_, reject) => {
      if (++seen === n) started.resolve();
      request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true });
    });
  return { fetch, started: started.promise };
}

/** A raw tool that blocks until aborted; `started` resolves once `n` calls are inside it. */
function blockingCalls(n: number): { extension: ServerExtension; started: Promise<void> } {
  const started = Promise.withResolvers<void>();
  let seen = 0;
  return {
    started: started.promise,
    extension: {
      rawTools: [{
        tool: { name: "test_block", description: "blocks until aborted", inputSchema: { type: "object" } },
        async call(_args, extra) {
          if (++seen === n) started.resolve();
          await new Promise<void>((_, reject) => {
            extra.mcpReq.signal.addEventListener("abort", () => reject(extra.mcpReq.signal.reason), { once: true });
          });
          return { content: [] };
        },
      }],
    },
  };
}

Deno.test("shutdown on the 2026-07-28 leg: every call in flight gets a JSON-RPC error, streamed or not", async () => {
  const block = blockingCalls(5);
  // NCBI runs 3 requests at once: three catalogue calls are all in flight upstream.
  const upstream = hangingFetch(3);
  const runtime = testRuntime({ env: { MCP_AUTH_MODE: "none" }, fetch: upstream.fetch });
  const server = startHttpServer(runtime, { port: 0, graceMs: 10, extension: block.extension });
  const base = server.url;
  // Five raw-tool calls (answered as JSON) and three catalogue calls (answered over SSE).
  const calls = [
    ...Array.from({ length: 5 }, (_, i) => fetch(modernRequest("tools/call", { name: "test_block" }, { id: i, base }))),
    ...Array.from(
      { length: 3 },
      (_, i) =>
        fetch(
          modernRequest("tools/call", { name: "search_genes", arguments: { query: `G${i}` } }, { id: 10 + i, base }),
        ),
    ),
  ];
  await Promise.all([block.started, upstream.started]);
  const answers = Promise.all(calls.map(async (call) => await readFinal(await call)));
  await server.shutdown();
  const finals = await answers;
  assert.deepEqual(finals.map((f) => f.id), [0, 1, 2, 3, 4, 10, 11, 12]);
  for (const final of finals) {
    const error = final.error as { code: number; message: string } | undefined;
    assert.equal(error?.code, -32000, JSON.stringify(final));
    assert.match(error!.message, /shutting down.*send it again/);
  }
});
