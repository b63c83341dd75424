/**
 * Test wiring for the papers tools: the mock routes of scripts/mock_routes/papers.ts served through a
 * scripted fetch (no sockets), base URLs pointing at them, and a driver for the ManualClock so paced
 * upstreams (arXiv: one request per 3 s) move on without real waiting.
 */
import type { ManualClock } from "../../../src/core/clock.ts";
import { papersRoutes } from "../../../scripts/mock_routes/papers.ts";
import type { MockPrefix } from "../../../scripts/mock_routes/types.ts";
import type { RecordedRequest, Route } from "../../helpers/runtime.ts";

export const MOCK_ORIGIN = "http://mock.test";

export const MOCK_ENV = {
  ARXIV_API_BASE_URL: `${MOCK_ORIGIN}/arxiv-api`,
  ARXIV_WEB_BASE_URL: `${MOCK_ORIGIN}/arxiv-web`,
  AR5IV_BASE_URL: `${MOCK_ORIGIN}/ar5iv`,
  OPENALEX_BASE_URL: `${MOCK_ORIGIN}/openalex`,
};

/** A scripted-fetch route answering from the papers mock routes (undefined for other hosts). */
export const papersMockRoute: Route = (req: RecordedRequest) => {
  if (req.url.origin !== MOCK_ORIGIN) return undefined;
  return answer(req);
};

async function answer(req: RecordedRequest): Promise<Response> {
  const [, prefix, ...rest] = req.url.pathname.split("/");
  for (const route of papersRoutes) {
    if (route.prefix !== prefix as MockPrefix) continue;
    const response = await route.handle({
      method: req.method,
      path: `/${rest.join("/")}`,
      params: new URLSearchParams(req.url.search),
      url: req.url,
      body: req.body,
    });
    if (response) return response;
  }
  return new Response(`no mock route for ${req.url.pathname}`, { status: 599 });
}

/** Advances the clock a second at a time until `promise` settles (at most `maxMs` of fake time). */
export async function settle<T>(clock: ManualClock, promise: Promise<T>, maxMs = 600_000): Promise<T> {
  let done = false;
  promise.then(() => (done = true), () => (done = true));
  for (let elapsed = 0; !done && elapsed < maxMs; elapsed += 1000) await clock.advance(1000);
  return await promise;
}

/** Records the fake time at which each request reached the network. */
export function timed(clock: ManualClock, route: Route): Route & { times: { url: URL; at: number }[] } {
  const times: { url: URL; at: number }[] = [];
  const wrapped: Route = (req) => {
    times.push({ url: req.url, at: clock.now() });
    return route(req);
  };
  return Object.assign(wrapped, { times });
}

export interface ErrorEnvelope {
  code: string;
  message: string;
  recovery_hint: string;
}

export function errorOf(result: { structuredContent?: unknown }): ErrorEnvelope {
  return (result.structuredContent as { error: ErrorEnvelope }).error;
}
