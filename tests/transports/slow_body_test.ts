/**
 * A request body must arrive in full within the body deadline: a body trickling in (one byte a second)
 * or never finished is answered 408 and released by the handler.
 * (Unfinished headers are another matter: Deno.serve has no header-read timeout; README's deployment
 * section shows the reverse-proxy settings, and scripts/idle_connections.ts measures both.)
 */
import assert from "node:assert/strict";
import { ManualClock, systemClock } from "../../src/core/clock.ts";
import { createHttpHandler } from "../../src/transports/http.ts";
import { startHttpServer } from "../../src/transports/http_server.ts";
import { testRuntime } from "../helpers/runtime.ts";
import { BASE, INITIALIZE } from "./http_helpers.ts";

/** A request whose body sends a few bytes, then nothing more (until cancelled). */
function trickling(): Request {
  const first = new TextEncoder().encode(JSON.stringify(INITIALIZE).slice(0, 10));
  let sent = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(first);
      }
      return new Promise(() => {}); // the rest never comes
    },
  });
  return new Request(`${BASE}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body,
  });
}

Deno.test("a body that has not arrived in full within the deadline is answered 408", async () => {
  const clock = new ManualClock(1_700_000_000_000);
  const runtime = testRuntime({ clock, env: { MCP_AUTH_MODE: "none" } });
  const handler = createHttpHandler(runtime, { reapIntervalMs: 0 });
  try {
    const answer = handler.fetch(trickling());
    await clock.advance(9_000);
    await clock.advance(1_000);
    const response = await answer;
    assert.equal(response.status, 408);
    assert.equal(response.headers.get("connection"), "close");
    assert.match((await response.json()).error.message, /not received within 10 s/);
  } finally {
    await handler.close();
    await runtime.close();
  }
});

Deno.test("on a real socket, a stalled body gets its 408 after the body deadline", async () => {
  const runtime = testRuntime({ clock: systemClock, env: { MCP_AUTH_MODE: "none" } });
  const server = startHttpServer(runtime, { port: 0, bodyDeadlineMs: 200 });
  const port = Number(new URL(server.url).port);
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(new TextEncoder().encode(
      "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n" +
        "accept: application/json, text/event-stream\r\ncontent-length: 500\r\n\r\n{",
    ));
    // The answer comes; the socket itself stays open until the client goes (Deno.serve keeps a connection
    // whose request body was not drained: see README, "Exposing the HTTP server").
    const buffer = new Uint8Array(4096);
    const n = await conn.read(buffer);
    assert.match(new TextDecoder().decode(buffer.subarray(0, n ?? 0)), /^HTTP\/1\.1 408/);
  } finally {
    conn.close();
    await server.shutdown();
  }
});
