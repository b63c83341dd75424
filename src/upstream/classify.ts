/**
 * What a received response means for the pipeline — success, throttle (shared cool-down, retry),
 * transient failure (retry after back-off) or final failure — and the messages a caller sees when the
 * pipeline gives up. Messages name the host, what it answered, how often, and what to do.
 */
import { parseRetryAfter } from "./backoff.ts";
import type { RawResponse } from "./http_attempt.ts";
import type { UpstreamPolicy } from "./policies.ts";
import { PROBE_BYTES } from "./throttle.ts";

export type Outcome =
  | { type: "ok" }
  /** A 429 or an equivalent signal: the whole upstream cools down. `signal` describes what was seen. */
  | { type: "throttled"; signal: string; retryAfterMs?: number }
  /** 5xx / 408: this request backs off (a 503 with Retry-After cools the upstream down). */
  | { type: "transient"; retryAfterMs?: number }
  | { type: "fatal" };

export interface Classified {
  outcome: Outcome;
  /** Spacing factor the upstream asked for, when it said anything. */
  slowdown?: number;
}

const decoder = new TextDecoder();

export function classify(
  raw: RawResponse,
  policy: UpstreamPolicy,
  redirect: "follow" | "manual",
  now: number,
): Classified {
  const head = decoder.decode(raw.body.subarray(0, PROBE_BYTES));
  const verdict = policy.detectThrottle?.({ status: raw.status, headers: raw.headers, head }) ?? {};
  const retryAfterMs = parseRetryAfter(raw.headers.get("retry-after"), now);
  const base = verdict.slowdown === undefined ? {} : { slowdown: verdict.slowdown };
  if (raw.status === 429) return { ...base, outcome: { type: "throttled", signal: "429", retryAfterMs } };
  if (verdict.throttled) return { ...base, outcome: { type: "throttled", signal: verdict.throttled, retryAfterMs } };
  if (raw.status >= 200 && raw.status <= 299) return { ...base, outcome: { type: "ok" } };
  if (raw.status >= 300 && raw.status <= 399 && redirect === "manual") return { ...base, outcome: { type: "ok" } };
  if (policy.finalStatuses?.includes(raw.status)) return { ...base, outcome: { type: "fatal" } };
  if (raw.status >= 500 || raw.status === 408) return { ...base, outcome: { type: "transient", retryAfterMs } };
  return { ...base, outcome: { type: "fatal" } };
}

/** "once", "twice", "three times", "4 times". */
export function times(n: number): string {
  return ["", "once", "twice", "three times"][n] ?? `${n} times`;
}

export function seconds(ms: number): string {
  return `${Math.max(1, Math.ceil(ms / 1000))} s`;
}

/**
 * @example
 * throttledMessage("api.example.org", "429", 3, 2000, " or set EXAMPLE_API_KEY")
 * // "api.example.org answered 429 three times; retry after 2 s or set EXAMPLE_API_KEY"
 */
export function throttledMessage(host: string, signal: string, attempts: number, waitMs: number, hint: string) {
  return `${host} answered ${signal} ${times(attempts)}; retry after ${seconds(waitMs)}${hint}`;
}

/** Message for an HTTP status the pipeline will not (or no longer) retry; quotes the start of a text body. */
export function httpMessage(host: string, status: number, attempts: number, shownUrl: string, body: string): string {
  const snippet = bodySnippet(body);
  const count = attempts > 1 ? ` ${times(attempts)}` : "";
  return `${host} answered HTTP ${status}${count} for ${shownUrl}${snippet ? `: ${snippet}` : ""}`;
}

/** First line of readable text in a body: JSON/XML/HTML tags stripped, at most 200 characters. */
function bodySnippet(body: string): string {
  const text = body.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/gi, " ")
    .replace(/<[^>]*>/g, " ").replace(/[{}"[\]]/g, " ").replace(/\s+/g, " ").trim();
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

export function formatBytes(n: number): string {
  if (n >= 1024 ** 2) return `${(n / 1024 ** 2).toFixed(n % 1024 ** 2 ? 1 : 0)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(n % 1024 ? 1 : 0)} KiB`;
  return `${n} bytes`;
}
