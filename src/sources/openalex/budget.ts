/**
 * OpenAlex meters usage in US dollars (since 2026) and, on older deployments, in credits. Each response
 * carries the standing: `X-RateLimit-Limit-USD`, `X-RateLimit-Remaining-USD`, `X-RateLimit-Cost-USD`,
 * `X-RateLimit-Prepaid-Remaining-USD` and `X-RateLimit-Reset` (seconds to the midnight-UTC reset), or
 * `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Credits-Used`. We surface what is present.
 */

export interface OpenAlexBudget {
  limitUsd?: number;
  remainingUsd?: number;
  costUsd?: number;
  prepaidRemainingUsd?: number;
  limitCredits?: number;
  remainingCredits?: number;
  creditsUsed?: number;
  resetSeconds?: number;
}

export function readBudget(headers: Headers): OpenAlexBudget | undefined {
  const num = (name: string) => {
    const v = headers.get(name);
    const n = v === null || v.trim() === "" ? NaN : Number(v);
    return Number.isFinite(n) ? n : undefined;
  };
  const budget: OpenAlexBudget = {
    limitUsd: num("x-ratelimit-limit-usd"),
    remainingUsd: num("x-ratelimit-remaining-usd"),
    costUsd: num("x-ratelimit-cost-usd"),
    prepaidRemainingUsd: num("x-ratelimit-prepaid-remaining-usd"),
    limitCredits: num("x-ratelimit-limit"),
    remainingCredits: num("x-ratelimit-remaining"),
    creditsUsed: num("x-ratelimit-credits-used"),
    resetSeconds: num("x-ratelimit-reset"),
  };
  const present = Object.fromEntries(Object.entries(budget).filter(([, v]) => v !== undefined));
  return Object.keys(present).length > 0 ? present as OpenAlexBudget : undefined;
}

/**
 * @example describeBudget({ remainingUsd: 0.979, limitUsd: 1, costUsd: 0.0001 })
 *   // "OpenAlex budget: $0.979 of $1 left today; this request cost $0.0001."
 */
export function describeBudget(b: OpenAlexBudget, requests = 1): string {
  const parts: string[] = [];
  if (b.remainingUsd !== undefined) {
    parts.push(`$${b.remainingUsd}${b.limitUsd !== undefined ? ` of $${b.limitUsd}` : ""} left today`);
  }
  if (b.remainingCredits !== undefined) {
    parts.push(`${b.remainingCredits}${b.limitCredits !== undefined ? ` of ${b.limitCredits}` : ""} credits left`);
  }
  if (b.prepaidRemainingUsd !== undefined) parts.push(`$${b.prepaidRemainingUsd} prepaid left`);
  const what = requests === 1 ? "this request" : `the last of ${requests} requests`;
  if (b.costUsd !== undefined) parts.push(`${what} cost $${b.costUsd}`);
  else if (b.creditsUsed !== undefined) parts.push(`${what} used ${b.creditsUsed} credits`);
  if (b.resetSeconds !== undefined) parts.push(`resets in ${Math.round(b.resetSeconds / 3600)} h`);
  return `OpenAlex budget: ${parts.join("; ")}.`;
}
