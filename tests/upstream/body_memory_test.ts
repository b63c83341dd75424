/**
 * What a capped body read holds (#35): a gzip-decoded network body arrived as 4 KiB views of 64 KiB
 * buffers, one buffer per read, and the reader kept the views (16 times the body, 3.9 GB for eight 50 MiB
 * bombs: bench/gzip_bomb_bench.ts). A byte stream is now read into one scratch buffer of the reader's,
 * reused for every read, and copied into one growing buffer; other streams' chunks are copied, never kept
 * and never touched.
 */
import assert from "node:assert/strict";
import { ManualClock } from "../../src/core/clock.ts";
import { attemptFetch } from "../../src/upstream/http_attempt.ts";
import type { BuiltRequest } from "../../src/upstream/request_builder.ts";

const VIEW = 4096;

/** A byte stream like a decoded gzip body: `count` reads of 4 KiB; counts buffers it had to allocate. */
function decoderLike(count: number, stats: { reads: number; allocated: number }): Response {
  const fill = (view: Uint8Array) => {
    const n = Math.min(VIEW, view.byteLength);
    view.fill(stats.reads % 251, 0, n);
    stats.reads++;
    return n;
  };
  return new Response(
    new ReadableStream({
      type: "bytes",
      pull(controller) {
        if (stats.reads === count) {
          controller.close();
          controller.byobRequest?.respond(0);
          return;
        }
        const request = controller.byobRequest;
        if (request?.view) {
          request.respond(fill(new Uint8Array(request.view.buffer, request.view.byteOffset, request.view.byteLength)));
        } else {
          stats.allocated++;
          const chunk = new Uint8Array(64 * 1024);
          controller.enqueue(chunk.subarray(0, fill(chunk)));
        }
      },
    }),
  );
}

const built = { url: "https://example.org/x", method: "GET", headers: new Headers() } as unknown as BuiltRequest;
const attempt = (response: Response, maxBytes: number) =>
  attemptFetch(built, {
    fetch: () => Promise.resolve(response),
    clock: new ManualClock(),
    timeoutMs: 60_000,
    maxBytes,
  });

Deno.test("a byte-stream body is read into the reader's own buffer: no buffer per read, the body exact", async () => {
  const stats = { reads: 0, allocated: 0 };
  const result = await attempt(decoderLike(32, stats), 1024 ** 2);
  assert.ok(result.ok);
  const body = result.response.body;
  assert.equal(body.byteLength, 32 * VIEW);
  assert.equal(body.buffer.byteLength, 32 * VIEW, "the body's buffer is the body, nothing more");
  assert.equal((body.buffer as ArrayBuffer).resizable, false);
  for (let i = 0; i < 32; i++) assert.equal(body[i * VIEW + 17], i % 251);
  assert.equal(stats.allocated, 0, "every read went into the reader's buffer");
});

Deno.test("a byte-stream body over the cap stops at the cap, having read at most one read past it", async () => {
  const stats = { reads: 0, allocated: 0 };
  const result = await attempt(decoderLike(100_000, stats), 40 * VIEW);
  assert.equal(result.ok ? "ok" : result.kind, "too_large");
  assert.ok(stats.reads <= 41, `read ${stats.reads} chunks for a cap of 40`);
  assert.equal(stats.allocated, 0);
});

Deno.test("a stream that hands out views of one shared buffer gives the exact body, and its buffer is left whole", async () => {
  const shared = new TextEncoder().encode("0123456789".repeat(1000));
  let at = 0;
  const result = await attempt(
    new Response(
      new ReadableStream<Uint8Array>({
        pull(controller) {
          if (at >= shared.length) return controller.close();
          controller.enqueue(shared.subarray(at, at + 777));
          at += 777;
        },
      }),
    ),
    1024 ** 2,
  );
  assert.ok(result.ok);
  assert.deepEqual(result.response.body, shared);
  assert.equal(shared.byteLength, 10_000, "the producer's buffer is not detached");
});
