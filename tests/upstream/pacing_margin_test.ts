/**
 * Pacing judged at the upstream, on one injected clock: a simulated network delays each request by a
 * jittery latency (the first, on a cold connection, and one stalled request by much more) before the mock's own referee
 * (scripts/mock_upstream/rate_gate.ts, strict sliding windows) sees it arrive. 30 concurrent calls per
 * upstream must cause zero 429s with the default margin; the same traffic paced exactly at the
 * published rate does not, which is what the margin and the cold-start hold are for.
 */
import assert from "node:assert/strict";
import { defaultRateRules, RateGate } from "../../scripts/mock_upstream/rate_gate.ts";
import { ManualClock } from "../../src/core/clock.ts";
import { memoryLogger } from "../../src/core/log.ts";
import { createUpstream, type UpstreamName } from "../../src/upstreams/mod.ts";
import { testConfig } from "../helpers/runtime.ts";
import { drive } from "./helpers.ts";

/** Deterministic jitter (mulberry32), so a failure replays exactly. */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Network {
  /** One-way latency of request `i` (ms). */
  latency(i: number): number;
}

/**
 * 20–120 ms per request; the very first pays 400 ms more (DNS, TCP and TLS on a cold connection), and the
 * 11th (counting answers too) 350 ms more on its way (a retransmitted packet, a stalled event loop).
 */
function jitteryNetwork(seed: number): Network {
  const random = seeded(seed);
  return { latency: (i) => 20 + Math.floor(random() * 100) + (i === 0 ? 400 : 0) + (i === 10 ? 350 : 0) };
}

async function burst(
  upstream: UpstreamName,
  request: (i: number) => Parameters<ReturnType<typeof createUpstream>["request"]>[0],
  options: { marginPct?: number; seed?: number; calls?: number } = {},
) {
  const clock = new ManualClock(0);
  const referee = new RateGate(defaultRateRules());
  const network = jitteryNetwork(options.seed ?? 1);
  const arrivals: { at: number; violation?: string }[] = [];
  let sent = 0;
  const fetch = async (_request: Request) => {
    await clock.sleep(network.latency(sent++));
    const violation = referee.arrive(upstream, clock.now());
    referee.done(upstream);
    arrivals.push({ at: clock.now(), violation });
    await clock.sleep(network.latency(sent));
    if (!violation) return new Response("ok");
    return upstream === "ncbi-eutils"
      ? Response.json({ error: "API rate limit exceeded" }, { status: 429 })
      : new Response(violation, { status: 429 });
  };
  const pipeline = createUpstream({
    fetch,
    clock,
    config: testConfig({ NCBI_REQUEST_DELAY_MS: "" }),
    log: memoryLogger(),
    random: seeded(7),
    policies: options.marginPct === undefined ? undefined : { [upstream]: { marginPct: options.marginPct } },
  });
  const calls = Array.from({ length: options.calls ?? 30 }, (_, i) => pipeline.request(request(i)));
  const results = await drive(clock, Promise.allSettled(calls), 1000);
  return {
    succeeded: results.filter((r) => r.status === "fulfilled").length,
    violations: arrivals.filter((a) => a.violation).length,
    requests: arrivals.length,
  };
}

const CASES: [UpstreamName, string, (i: number) => Parameters<ReturnType<typeof createUpstream>["request"]>[0]][] = [
  ["ncbi-eutils", "3 req/s", (i) => ({ upstream: "ncbi-eutils", path: "/esearch.fcgi", query: { term: `t${i}` } })],
  ["pubchem", "5 req/s", (i) => ({ upstream: "pubchem", path: `/pug/compound/cid/${i + 1}/JSON` })],
  ["arxiv-api", "1 per 3 s", (i) => ({ upstream: "arxiv-api", path: "/query", query: { id_list: `2401.${i}` } })],
];

for (const [name, rate, request] of CASES) {
  Deno.test(`${name}: 30 concurrent calls against a referee enforcing ${rate} at arrival get zero 429s`, async () => {
    for (const seed of [1, 2, 3]) {
      const outcome = await burst(name, request, { seed });
      assert.deepEqual(outcome, { succeeded: 30, violations: 0, requests: 30 }, `seed ${seed}`);
    }
  });
}

Deno.test("the referee has teeth: the same traffic paced exactly at the published rate draws 429s", async () => {
  for (const [name, , request] of CASES) {
    const outcome = await burst(name, request, { marginPct: 0, calls: 10 });
    assert.ok(outcome.violations > 0, `${name}: ${JSON.stringify(outcome)}`);
  }
});
