/**
 * Rate enforcement of the mock upstream: it knows each upstream's published limits (the numbers in
 * src/upstream/policies.ts) and refuses, with a 429 counted as a violation, any request that arrives too
 * soon after the previous one, beyond the per-minute budget, or beyond the allowed concurrency. This is
 * what lets the pacing benchmark prove "0 violations" against an independent referee.
 */
import { loadConfig } from "../../src/config.ts";
import { upstreamPolicies } from "../../src/upstreams/mod.ts";
import type { UpstreamName } from "../../src/upstreams/mod.ts";

export interface RateRule {
  /** Minimum spacing between two arrivals. */
  intervalMs: number;
  perMinute?: number;
  /** Requests being answered at once. */
  concurrency?: number;
}

/** The limits each upstream publishes, as the pipeline's policy table states them (no API keys). */
export function defaultRateRules(): Record<UpstreamName, RateRule> {
  const policies = upstreamPolicies(loadConfig({}));
  const out = {} as Record<UpstreamName, RateRule>;
  for (const [name, p] of Object.entries(policies) as [UpstreamName, (typeof policies)[UpstreamName]][]) {
    out[name] = { intervalMs: p.intervalMs, perMinute: p.perMinute, concurrency: p.concurrency };
  }
  return out;
}

interface Track {
  lastArrival: number;
  window: number[];
  active: number;
}

export class RateGate {
  readonly #rules: Partial<Record<UpstreamName, RateRule>>;
  readonly #tolerance: number;
  readonly #tracks = new Map<UpstreamName, Track>();

  /**
   * @param toleranceRatio share of the interval forgiven for arrival jitter (a request sent exactly on time
   * can arrive a few ms "early" relative to the previous one on a busy machine).
   */
  constructor(rules: Partial<Record<UpstreamName, RateRule>>, toleranceRatio = 0.1) {
    this.#rules = rules;
    this.#tolerance = toleranceRatio;
  }

  /**
   * Records an arrival at `now` (ms). Returns undefined when it is within the rules, or why it is not.
   * Every arrival counts, refused or not, as it would at the real service. Call `done` when answered.
   */
  arrive(upstream: UpstreamName, now: number): string | undefined {
    const track = this.#track(upstream);
    const rule = this.#rules[upstream];
    const gap = now - track.lastArrival;
    track.lastArrival = now;
    track.active++;
    if (!rule) return undefined;
    track.window.push(now);
    while (track.window[0] <= now - 60_000) track.window.shift();
    const minGap = rule.intervalMs * (1 - this.#tolerance);
    if (gap < minGap) {
      return `arrived ${
        gap.toFixed(0)
      } ms after the previous request; ${upstream} allows one per ${rule.intervalMs} ms`;
    }
    if (rule.perMinute && track.window.length > rule.perMinute) {
      return `${track.window.length} requests in 60 s; ${upstream} allows ${rule.perMinute}`;
    }
    if (rule.concurrency && track.active > rule.concurrency) {
      return `${track.active} requests at once; ${upstream} allows ${rule.concurrency}`;
    }
    return undefined;
  }

  done(upstream: UpstreamName): void {
    this.#track(upstream).active--;
  }

  #track(upstream: UpstreamName): Track {
    let track = this.#tracks.get(upstream);
    if (!track) this.#tracks.set(upstream, track = { lastArrival: -Infinity, window: [], active: 0 });
    return track;
  }
}
