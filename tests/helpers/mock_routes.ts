/**
 * Serving the mock upstream's routes (scripts/mock_routes) in-process, from a scripted fetch: a recorded
 * request turned into the MockRequest a route expects, so tool tests and the real mock see the same bodies.
 */
import type { MockRequest } from "../../scripts/mock_routes/types.ts";
import type { RecordedRequest } from "./runtime.ts";

/** Query parameters and form-body fields of a request, merged (E-utilities and PUG REST accept either). */
export function mergedParams(request: RecordedRequest): URLSearchParams {
  const params = new URLSearchParams(request.url.search);
  if (request.method === "POST") { for (const [k, v] of new URLSearchParams(request.body)) params.append(k, v); }
  return params;
}

/**
 * `request` as a mock route sees it, `path` being its path below the mock prefix.
 *
 * @example
 * await ncbiRoutes[0].handle(toMockRequest(request, "/esearch.fcgi"));
 */
export function toMockRequest(request: RecordedRequest, path: string): MockRequest {
  return { method: request.method, path, params: mergedParams(request), url: request.url, body: request.body };
}
