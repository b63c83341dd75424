/**
 * Rate enforcement of the mock upstream, judged where a real service judges it: at arrival. Each
 * upstream's published rate ("one request per 334 ms", i.e. 3 per second) is enforced strictly as a
 * count of arrivals in any sliding window — at most 3 in any 1000 ms for NCBI, 5 for PubChem (and 400 in
 * any 60 s), one in any 3000 ms for the arXiv API — with no tolerance for jitter: jitter is the client's
 * problem, which is why it paces with a margin. Over-limit arrivals get a 429 counted as a violation.
 * Arrival times come from the caller (performance.now() in the HTTP mock, an injected clock in tests),
 * so the same referee judges real sockets and simulated latency alike.
 */
import { loadConfig } from "../../src/config.ts";
import { upstreamPolicies } from "../../src/upstreams/mod.ts";
import type { UpstreamName } from "../../src/upstreams/mod.ts";

export interface RateRule {
  /**
   * The published rate as one request per `intervalMs`. Below a second it is a per-second budget
   * (round(1000 / intervalMs) arrivals in any 1000 ms); from a second up, one arrival per interval.
   */
  intervalMs: number;
  /** At most this many arrivals in any 60 s. */
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

/**
 * The sliding window a rule stands for.
 *
 * @example windowOf({ intervalMs: 334 }) // { limit: 3, windowMs: 1000 }
 * @example windowOf({ intervalMs: 3000 }) // { limit: 1, windowMs: 3000 }
 */
export function windowOf(rule: RateRule): { limit: number; windowMs: number } {
  if (rule.intervalMs >= 1000) return { limit: 1, windowMs: rule.intervalMs };
  return { limit: Math.max(1, Math.round(1000 / Math.max(1, rule.intervalMs))), windowMs: 1000 };
}

interface Track {
  arrivals: number[];
  active: number;
}

export class RateGate {
  readonly #rules: Partial<Record<UpstreamName, RateRule>>;
  readonly #tracks = new Map<UpstreamName, Track>();

  constructor(rules: Partial<Record<UpstreamName, RateRule>>) {
    this.#rules = rules;
  }

  /**
   * Records an arrival at `now` (ms). Returns undefined when it is within the rules, or why it is not.
   * Every arrival counts, refused or not, as it would at the real service. Call `done` when answered.
   */
  arrive(upstream: UpstreamName, now: number): string | undefined {
    const track = this.#track(upstream);
    track.active++;
    const rule = this.#rules[upstream];
    if (!rule) return undefined;
    track.arrivals.push(now);
    const { limit, windowMs } = windowOf(rule);
    const horizon = Math.max(windowMs, rule.perMinute ? 60_000 : 0);
    while (track.arrivals.length && track.arrivals[0] <= now - horizon) track.arrivals.shift();
    const inWindow = track.arrivals.filter((t) => t > now - windowMs).length;
    if (inWindow > limit) {
      if (limit === 1) {
        const gap = now - track.arrivals[track.arrivals.length - 2];
        return `arrived ${gap.toFixed(0)} ms after the previous request; ${upstream} allows one per ${windowMs} ms`;
      }
      return `${inWindow} requests within ${windowMs} ms; ${upstream} allows ${limit} per second`;
    }
    if (rule.perMinute && track.arrivals.length > rule.perMinute) {
      return `${track.arrivals.length} requests in 60 s; ${upstream} allows ${rule.perMinute}`;
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
    if (!track) this.#tracks.set(upstream, track = { arrivals: [], active: 0 });
    return track;
  }
}
