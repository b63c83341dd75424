/**
 * Pacing accuracy: a burst of distinct calls through the real pipeline (createUpstream, real fetch, real
 * clock) against the mock upstream enforcing NCBI's 3 requests/s. The mock is the referee: it counts any
 * request that arrives too soon as a violation. Ideal wall time is (N − 1)/3 s: the first request goes at
 * once, each next one a third of a second later. Then the same burst with injected 429s: the shared
 * cool-down must absorb them with no violation and every call must still succeed.
 */
import { startMockUpstream } from "../scripts/mock_upstream.ts";
import type { MockRoute } from "../scripts/mock_routes/types.ts";
import { loadConfig } from "../src/config.ts";
import { systemClock } from "../src/core/clock.ts";
import { createLogger } from "../src/core/log.ts";
import { createUpstream } from "../src/upstreams/mod.ts";
import { upstreamPolicies } from "../src/upstreams/mod.ts";
import { totalViolations } from "./support.ts";
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
  minGapMs: number;
  intervalMs: number;
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
    const arrivals = mock.requests.map((r) => r.at);
    const gaps = arrivals.slice(1).map((at, i) => at - arrivals[i]);
    return {
      wallS,
      succeeded: results.filter((r) => r.status === "fulfilled").length,
      requests: mock.requests.length,
      violations: totalViolations(mock),
      minGapMs: Math.min(...gaps),
      intervalMs: upstreamPolicies(config)["ncbi-eutils"].intervalMs,
    };
  } finally {
    await mock.close();
  }
}

export async function run(options: BenchOptions): Promise<BenchRow[]> {
  const calls = options.quick ? 15 : 60;
  const throttles = options.quick ? 2 : 3;
  const command = `deno task bench${options.quick ? " --quick" : ""} pacing`;
  const ideal = (calls - 1) / 3;
  const rows: BenchRow[] = [];

  const clean = await burst(calls);
  const over = (clean.wallS / ideal - 1) * 100;
  const slack = clean.intervalMs * 0.9;
  rows.push(
    {
      name: `pacing: ${calls} distinct calls @ 3 req/s, wall time`,
      value: clean.wallS,
      unit: "s",
      target: `${ideal.toFixed(2)}–${(ideal * 1.05).toFixed(2)} s ((N−1)/3, +5 %)`,
      pass: clean.wallS >= ideal * 0.99 && clean.wallS <= ideal * 1.05 && clean.succeeded === calls,
      command,
      notes: `${over >= 0 ? "+" : ""}${over.toFixed(1)} % vs (N−1)/3 s; policy spacing ${clean.intervalMs} ms`,
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
      name: "pacing: smallest gap between arrivals at the mock",
      value: clean.minGapMs,
      unit: "ms",
      target: `≥ ${slack.toFixed(0)} ms (${clean.intervalMs} ms − 10 % arrival jitter)`,
      pass: clean.minGapMs >= slack,
      command,
    },
  );

  // Consecutive throttles without Retry-After: cool-downs of 1 s, 2 s, 4 s (exponential). Each throttled
  // call meets the next one at the end of a cool-down; afterwards all N calls (the throttled ones retried
  // at the back of the queue) go at the normal spacing: expected (N−1)/3 s + the cool-downs.
  const throttled = await burst(calls, throttles);
  const cooldowns = Array.from({ length: throttles }, (_, k) => 2 ** k).reduce((a, b) => a + b, 0);
  const expected = ideal + cooldowns;
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
      target: `${expected.toFixed(2)}–${(expected * 1.05).toFixed(2)} s ((N−1)/3 + cool-downs, +5 %)`,
      pass: throttled.wallS >= expected * 0.99 && throttled.wallS <= expected * 1.05,
      command,
      notes: `cool-downs ${Array.from({ length: throttles }, (_, k) => `${2 ** k} s`).join(" + ")}`,
    },
  );
  return rows;
}
