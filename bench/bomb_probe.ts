/**
 * One memory measurement of gzip_bomb_bench.ts, alone in its process: `calls` concurrent upstream
 * attempts (the capped body reader every upstream request goes through, src/upstream/http_attempt.ts) at
 * the default body cap (UPSTREAM_MAX_BYTES, 50 MiB) against bench/bomb_server.ts, each ending at the cap.
 * Prints one JSON line: RSS at the start, the peak (sampled every 5 ms) and 10 s after the last answer,
 * in bytes, and how each attempt ended.
 *
 * Usage: deno run -A bench/bomb_probe.ts BASE_URL gzip|plain CALLS
 */
import { loadConfig } from "../src/config.ts";
import { systemClock } from "../src/core/clock.ts";
import { attemptFetch } from "../src/upstream/http_attempt.ts";
import type { BuiltRequest } from "../src/upstream/request_builder.ts";

const [base, kind, calls] = Deno.args;
const maxBytes = loadConfig({}).upstreamMaxBytes;

const start = Deno.memoryUsage().rss;
let peak = start;
const sampler = setInterval(() => peak = Math.max(peak, Deno.memoryUsage().rss), 5);
const results = await Promise.all(
  Array.from({ length: Number(calls) }, (_, i) => {
    const url = `${base}/bomb/${i}/${kind}`;
    const built = { url, method: "GET", headers: new Headers() } as unknown as BuiltRequest;
    return attemptFetch(built, { fetch, clock: systemClock, timeoutMs: 120_000, maxBytes });
  }),
);
peak = Math.max(peak, Deno.memoryUsage().rss);
await new Promise((resolve) => setTimeout(resolve, 10_000));
clearInterval(sampler);
const outcomes = results.map((r) => r.ok ? `ok ${r.response.body.byteLength} bytes` : r.kind);
console.log(JSON.stringify({ start, peak, after: Deno.memoryUsage().rss, maxBytes, outcomes }));
