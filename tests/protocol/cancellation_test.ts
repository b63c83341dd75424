/**
 * 2026-07-28 has no `notifications/cancelled` over HTTP: a client cancels a call by closing its response
 * stream. Over a real socket (Deno.serve), closing the connection must abort the tool's signal (Deno
 * notices a closed connection through the streamed body, hence the modern leg's SSE responses).
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { defineTool } from "../../src/tools/tool_def.ts";
import { startHttpServer } from "../../src/transports/http_server.ts";
import { testRuntime } from "../helpers/runtime.ts";
import { modernRequest } from "./modern_helpers.ts";

Deno.test("2026-07-28 over HTTP: closing the response stream cancels the call", async () => {
  const started = Promise.withResolvers<void>();
  const aborted = Promise.withResolvers<string>();
  const waiter = defineTool({
    name: "wait_for_cancel",
    title: "Waits until cancelled",
    toolset: "pdf",
    description: "Test tool: runs until its signal aborts.",
    input: z.object({}),
    output: z.object({ ok: z.boolean() }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    examples: [{}],
    run(_args, ctx) {
      started.resolve();
      return new Promise((_resolve, reject) => {
        ctx.signal.addEventListener("abort", () => {
          aborted.resolve("aborted");
          reject(ctx.signal.reason);
        });
      });
    },
    render: () => "ok",
  });
  const runtime = testRuntime({ env: { MCP_AUTH_MODE: "none", MCP_HTTP_HOST: "127.0.0.1" } });
  const server = startHttpServer(runtime, { port: 0, extension: { tools: [waiter] }, graceMs: 100 });
  try {
    const controller = new AbortController();
    const call = fetch(
      modernRequest("tools/call", { name: "wait_for_cancel", arguments: {} }, {
        base: server.url,
        signal: controller.signal,
      }),
    ).catch((error) => error);
    await started.promise;
    controller.abort();
    assert.ok((await call) instanceof Error, "the client gave up");
    assert.equal(await aborted.promise, "aborted");
  } finally {
    await server.shutdown();
  }
});
