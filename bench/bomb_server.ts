/**
 * The upstream of gzip_bomb_bench.ts, run as its own process so its memory is not the server's: every
 * path ending in `/gzip` answers `Content-Encoding: gzip` with endless compressed zeros (a few KB on the
 * wire per MB decoded), every other path endless plain zeros, chunked (no length). Both stop when the
 * client hangs up. Prints the base URL on its first line.
 */
const ZEROS = new Uint8Array(64 << 10);

function endless(): ReadableStream<Uint8Array> {
  let open = true;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (open) controller.enqueue(ZEROS.slice());
      else controller.close();
    },
    cancel() {
      open = false;
    },
  }, { highWaterMark: 1 });
}

/** CompressionStream's writable side is typed BufferSource: it takes the Uint8Array chunks too. */
function gzip(): ReadableWritablePair<Uint8Array, Uint8Array> {
  return new CompressionStream("gzip") as unknown as ReadableWritablePair<Uint8Array, Uint8Array>;
}

Deno.serve({
  hostname: "127.0.0.1",
  port: 0,
  onListen: ({ port }) => console.log(`http://127.0.0.1:${port}`),
}, (request) => {
  if (!new URL(request.url).pathname.endsWith("/gzip")) {
    return new Response(endless(), { headers: { "content-type": "application/json" } });
  }
  return new Response(endless().pipeThrough(gzip()), {
    headers: { "content-type": "application/json", "content-encoding": "gzip" },
  });
});
