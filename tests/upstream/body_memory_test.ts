/**
 * What a capped body read holds (#35): a gzip-decoded fetch body arrives as 4 KiB views of 64 KiB
 * buffers; keeping the views kept 16 times the body. The reader copies each chunk and frees the buffer it
 * was cut from, so what stays is what was read.
 */
import assert from "node:assert/strict";
import { ManualClock } from "../../src/core/clock.ts";
import { attemptFetch } from "../../src/upstream/http_attempt.ts";
import type { BuiltRequest } from "../../src/upstream/request_builder.ts";

const VIEW = 4096;
const BUFFER = 64 * 1024;

/** A body like a decoded gzip stream (Deno keeps the header): `count` chunks, each the first 4 KiB of its own 64 KiB buffer. */
function decoderLike(count: number, sent: Uint8Array[]): Response {
  return new Response(
    new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent.length === count) return controller.close();
        const chunk = new Uint8Array(BUFFER).fill(sent.length % 251).subarray(0, VIEW);
        sent.push(chunk);
        controller.enqueue(chunk);
      },
    }, { highWaterMark: 0 }),
    { headers: { "content-encoding": "gzip" } },
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

Deno.test("a body read from small views of large buffers keeps only its own bytes, and frees those buffers", async () => {
  const sent: Uint8Array[] = [];
  const result = await attempt(decoderLike(32, sent), 1024 ** 2);
  assert.ok(result.ok);
  const body = result.response.body;
  assert.equal(body.byteLength, 32 * VIEW);
  assert.equal(body.buffer.byteLength, 32 * VIEW, "the body's buffer is the body, not a chunk's 64 KiB buffer");
  assert.equal((body.buffer as ArrayBuffer).resizable, false);
  for (let i = 0; i < 32; i++) assert.equal(body[i * VIEW + 17], i % 251);
  assert.deepEqual(sent.map((chunk) => chunk.buffer.byteLength), sent.map(() => 0), "every read buffer was freed");
});

Deno.test("a decoder-like body over the cap stops at the cap and holds none of the read buffers", async () => {
  const sent: Uint8Array[] = [];
  const result = await attempt(decoderLike(10_000, sent), 40 * VIEW);
  assert.equal(result.ok ? "ok" : result.kind, "too_large");
  assert.ok(sent.length <= 42, `read ${sent.length} chunks for a cap of 40`);
  const held = sent.reduce((sum, chunk) => sum + chunk.buffer.byteLength, 0);
  assert.ok(held <= BUFFER, `${held} bytes of read buffers still held`);
});

Deno.test("a plain body enqueued as slices of one array is read whole: only an inflated body's buffers are freed", async () => {
  const body = new TextEncoder().encode("<eSearchResult>" + "<Id>1</Id>".repeat(500) + "</eSearchResult>");
  const length = body.byteLength;
  let offset = 0;
  const slices = new Response(
    new ReadableStream<Uint8Array>({
      pull(controller) {
        if (offset >= body.length) return controller.close();
        controller.enqueue(body.subarray(offset, offset += 700));
      },
    }),
  );
  const result = await attempt(slices, 1024 ** 2);
  assert.ok(result.ok);
  assert.equal(new TextDecoder().decode(result.response.body), new TextDecoder().decode(body));
  assert.equal(body.byteLength, length, "the producer's array is left whole");
});
