/**
 * The upstream pipeline (first cut): base URL and credentials → pacing → fetch with timeout and size cap
 * → classify → retry. The core issue hardens this behind the same {@link Upstream} interface.
 */
import type { Config } from "../config.ts";
import type { Clock } from "../core/clock.ts";
import { UpstreamError } from "../core/errors.ts";
import { type Logger, redact } from "../core/log.ts";
import { upstreamPolicies, type UpstreamPolicy } from "./policies.ts";
import type { Fetch, Upstream, UpstreamName, UpstreamRequest, UpstreamResponse, UpstreamStatus } from "./types.ts";

export interface UpstreamDeps {
  fetch: Fetch;
  clock: Clock;
  config: Config;
  log: Logger;
}

export function createUpstream(deps: UpstreamDeps): Upstream {
  const policies = upstreamPolicies(deps.config);
  const lastStart = new Map<UpstreamName, number>();
  const queues = new Map<UpstreamName, Promise<void>>();
  const status: UpstreamStatus = {};

  async function permit(policy: UpstreamPolicy, signal?: AbortSignal): Promise<void> {
    const previous = queues.get(policy.name) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    queues.set(policy.name, previous.then(() => mine));
    await previous;
    try {
      const wait = (lastStart.get(policy.name) ?? -Infinity) + policy.intervalMs - deps.clock.now();
      if (wait > 0) await deps.clock.sleep(wait, signal);
      lastStart.set(policy.name, deps.clock.now());
    } finally {
      release();
    }
  }

  function buildUrl(req: UpstreamRequest): URL {
    const policy = policies[req.upstream];
    const url = new URL(req.url ?? policy.baseUrl + (req.path ?? ""));
    const params = credentials(req.upstream, deps.config);
    if (req.method !== "POST" || !req.form) Object.assign(params, {});
    for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    if (!req.form) { for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v); }
    return url;
  }

  function buildRequest(req: UpstreamRequest): Request {
    const url = buildUrl(req);
    const headers = new Headers({ "user-agent": `science-mcp/${deps.config.ncbi.tool}` });
    if (req.accept) headers.set("accept", req.accept);
    if (req.form) {
      const body = new URLSearchParams();
      for (const [k, v] of Object.entries(req.form)) if (v !== undefined) body.set(k, String(v));
      for (const [k, v] of Object.entries(credentials(req.upstream, deps.config))) body.set(k, v);
      headers.set("content-type", "application/x-www-form-urlencoded");
      return new Request(url, { method: "POST", headers, body });
    }
    return new Request(url, { method: req.method ?? "GET", headers });
  }

  async function attempt(req: UpstreamRequest, policy: UpstreamPolicy): Promise<UpstreamResponse> {
    const request = buildRequest(req);
    const shownUrl = redact(request.url);
    const timeout = AbortSignal.timeout(deps.config.upstreamTimeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
    let response: Response;
    try {
      response = await deps.fetch(new Request(request, { signal }));
    } catch (cause) {
      const kind = timeout.aborted ? "timeout" : req.signal?.aborted ? "aborted" : "network";
      throw new UpstreamError({
        kind,
        upstream: policy.name,
        url: shownUrl,
        message: `${policy.name}: ${kind} error for ${shownUrl}`,
        cause,
      });
    }
    const body = await readCapped(response, req.maxBytes ?? deps.config.upstreamMaxBytes, policy.name, shownUrl);
    if (!response.ok) {
      const text = new TextDecoder().decode(body.subarray(0, 4096));
      throw new UpstreamError({
        kind: "http",
        upstream: policy.name,
        url: shownUrl,
        status: response.status,
        retryAfterMs: parseRetryAfter(response.headers.get("retry-after"), deps.clock.now()),
        message: `${policy.name} answered HTTP ${response.status} for ${shownUrl}`,
        body: text,
      });
    }
    return makeResponse(response.status, response.headers, body, shownUrl, false);
  }

  return {
    async request(req) {
      const policy = policies[req.upstream];
      for (let tries = 0;; tries++) {
        await permit(policy, req.signal);
        try {
          const res = await attempt(req, policy);
          status[policy.name] = {
            ...status[policy.name],
            queueLength: 0,
            lastSuccessAt: new Date(deps.clock.now()).toISOString(),
          };
          return res;
        } catch (error) {
          const retryable = error instanceof UpstreamError &&
            (error.kind === "network" || error.kind === "timeout" || error.status === 429 ||
              (error.status ?? 0) >= 500);
          status[policy.name] = {
            ...status[policy.name],
            queueLength: 0,
            lastErrorAt: new Date(deps.clock.now()).toISOString(),
          };
          if (!retryable || tries >= policy.maxRetries) throw error;
          const backoff = Math.random() * Math.min(10_000, 500 * 2 ** tries);
          await deps.clock.sleep(Math.max(backoff, (error as UpstreamError).retryAfterMs ?? 0), req.signal);
        }
      }
    },
    describe: (req) => redact(buildUrl(req).toString()),
    status: () => structuredClone(status),
  };
}

/** NCBI and OpenAlex credentials, added in this one place and redacted everywhere else. */
function credentials(upstream: UpstreamName, config: Config): Record<string, string> {
  const out: Record<string, string> = {};
  if (upstream === "ncbi-eutils") {
    out.tool = config.ncbi.tool;
    if (config.ncbi.email) out.email = config.ncbi.email;
    if (config.ncbi.apiKey) out.api_key = config.ncbi.apiKey;
  } else if (upstream === "openalex") {
    if (config.openalex.apiKey) out.api_key = config.openalex.apiKey;
    if (config.openalex.mailto) out.mailto = config.openalex.mailto;
  }
  return out;
}

async function readCapped(response: Response, maxBytes: number, upstream: string, url: string): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (!response.body) return new Uint8Array();
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      await response.body.cancel().catch(() => {});
      throw new UpstreamError({
        kind: "too_large",
        upstream,
        url,
        message: `${upstream} sent more than ${maxBytes} bytes for ${url}`,
      });
    }
    chunks.push(chunk);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function makeResponse(
  status: number,
  headers: Headers,
  body: Uint8Array,
  url: string,
  fromCache: boolean,
): UpstreamResponse {
  let text: string | undefined;
  return {
    status,
    headers,
    body,
    url,
    fromCache,
    text: () => (text ??= new TextDecoder().decode(body)),
    json<T>() {
      return JSON.parse(text ??= new TextDecoder().decode(body)) as T;
    },
  };
}
