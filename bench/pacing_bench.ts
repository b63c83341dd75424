/**
 * Pacing accuracy: a burst of distinct calls through the real pipeline (createUpstream, real fetch, real
 * clock) against the mock upstream enforcing NCBI's 3 requests/s at arrival (at most 3 in any 1000 ms,
 * no tolerance). The mock is the referee: it counts any request over the limit as a violation. The
 * pipeline paces at the published spacing plus the 10 % margin (368 ms) and holds the queue until the
 * first request is answered, so the ideal wall time is (N − 1) × 368 ms plus one round trip. Then the same
 * burst with injected 429s: the shared cool-down must absorb them with no violation and every call must
 * still succeed.
 */
import { startMockUpstream } from "../scripts/mock_upstream.ts";
import type { MockRoute } from "../scripts/mock_routes/types.ts";
import { loadConfig } from "../src/config.ts";
import { systemClock } from "../src/core/clock.ts";
import { createLogger } from "../src/core/log.ts";
import { createUpstream } from "../src/upstreams/mod.ts";
import { upstreamPolicies } from "../src/upstreams/mod.ts";
import { maxInWindow, totalViolations } from "./support.ts";
import type { BenchOptions, BenchRow } from "./types.ts";

const ESEARCH: MockRoute = {
  prefix: "ncbi",
  name: "bench esearch",
  handle: (r) =>
    r.path === "/esearch.fcgi"
      ? new Response(
        `<eSearchResult><Count>1</Count><IdList><Id>${r.params.get("term")}</Id></IdList></eSearchResult>`,
        {
          headers: { "content-type": "text/xml" },
        },
      )
      : undefined,
};

interface BurstResult {
  wallS: number;
  succeeded: number;
  requests: number;
  violations: number;
  /** Most arrivals the mock saw in any 1000 ms. */
  peakPerSecond: number;
  /** Spacing the pipeline keeps (published interval + margin). */
  spacingMs: number;
}

async function burst(calls: number, injected429s = 0): Promise<BurstResult> {
  const mock = await startMockUpstream({ routes: [ESEARCH], onlyRoutes: true });
  try {
    if (injected429s) mock.setFault("ncbi", "429", { times: injected429s });
    const config = loadConfig(mock.env); // no NCBI_API_KEY, no NCBI_REQUEST_DELAY_MS: 3 requests/s
    const upstream = createUpstream({
      fetch: (request) => fetch(request),
      clock: systemClock,
      config,
      log: createLogger({ level: "error", sinks: [] }),
    });
    const started = performance.now();
    const results = await Promise.allSettled(
      Array.from(
        { length: calls },
        (_, i) =>
          upstream.request({
            upstream: "ncbi-eutils",
            path: "/esearch.fcgi",
            query: { db: "pubmed", term: `bench${i}` },
          }),
      ),
    );
    const wallS = (performance.now() - started) / 1000;
    const policy = upstreamPolicies(config)["ncbi-eutils"];
    return {
      wallS,
      succeeded: results.filter((r) => r.status === "fulfilled").length,
      requests: mock.requests.length,
      violations: totalViolations(mock),
      peakPerSecond: maxInWindow(mock.requests.map((r) => r.at), 1000),
      spacingMs: Math.ceil(policy.intervalMs * (100 + policy.marginPct) / 100),
    };
  } finally {
    await mock.close();
  }
}

export async function run(options: BenchOptions): Promise<BenchRow[]> {
  const calls = options.quick ? 15 : 60;
  const throttles = options.quick ? 2 : 3;
  const command = `deno task bench${options.quick ? " --quick" : ""} pacing`;
  const rows: BenchRow[] = [];

  const clean = await burst(calls);
  const ideal = (calls - 1) * clean.spacingMs / 1000;
  const over = (clean.wallS / ideal - 1) * 100;
  rows.push(
    {
      name: `pacing: ${calls} distinct calls @ 3 req/s, wall time`,
      value: clean.wallS,
      unit: "s",
      target: `${ideal.toFixed(2)}–${(ideal * 1.05).toFixed(2)} s ((N−1) × ${clean.spacingMs} ms, +5 %)`,
      pass: clean.wallS >= ideal * 0.99 && clean.wallS <= ideal * 1.05 && clean.succeeded === calls,
      command,
      notes: `${over >= 0 ? "+" : ""}${over.toFixed(1)} % vs (N−1) × spacing; ${
        ((calls - 1) / clean.wallS).toFixed(2)
      } req/s against a published 3`,
    },
    {
      name: "pacing: rate violations counted by the mock",
      value: clean.violations,
      unit: "violations",
      target: "= 0",
      pass: clean.violations === 0,
      command,
    },
    {
      name: "pacing: most arrivals at the mock in any 1 s",
      value: clean.peakPerSecond,
      unit: "requests",
      target: "≤ 3 (measured at arrival)",
      pass: clean.peakPerSecond <= 3,
      command,
    },
  );

  // Consecutive throttles without Retry-After: cool-downs of 1 s, 2 s, 4 s (exponential). Each throttled
  // call meets the next one at the end of a cool-down; afterwards all N calls (the throttled ones retried
  // at the back of the queue) go at the normal spacing: expected (N−1)/3 s + the cool-downs.
  const throttled = await burst(calls, throttles);
  const cooldowns = Array.from({ length: throttles }, (_, k) => 2 ** k).reduce((a, b) => a + b, 0);
  // The throttled call is retried at the back of the queue: N + throttles requests spaced as above.
  const expected = (calls - 1) * throttled.spacingMs / 1000 + cooldowns;
  rows.push(
    {
      name: `pacing under ${throttles} injected 429s: calls that succeeded`,
      value: throttled.succeeded,
      unit: `of ${calls}`,
      target: `= ${calls}`,
      pass: throttled.succeeded === calls,
      command,
      notes: `${throttled.requests} upstream requests (${throttled.requests - calls} retries)`,
    },
    {
      name: `pacing under ${throttles} injected 429s: rate violations`,
      value: throttled.violations,
      unit: "violations",
      target: "= 0",
      pass: throttled.violations === 0,
      command,
    },
    {
      name: `pacing under ${throttles} injected 429s: wall time`,
      value: throttled.wallS,
      unit: "s",
      target: `${expected.toFixed(2)}–${(expected * 1.05).toFixed(2)} s ((N−1) × spacing + cool-downs, +5 %)`,
      pass: throttled.wallS >= expected * 0.99 && throttled.wallS <= expected * 1.05,
      command,
      notes: `cool-downs ${Array.from({ length: throttles }, (_, k) => `${2 ** k} s`).join(" + ")}`,
    },
  );
  return rows;
}
