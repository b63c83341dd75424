/**
 * Test wiring for the gene tools: a scripted fetch answered by the same routes the mock upstream serves
 * (scripts/mock_routes/gene.ts), so MCP tests and offline runs see identical bodies, and every request
 * is recorded for assertions.
 */
import { geneRoutes } from "../../../scripts/mock_routes/gene.ts";
import type { Env } from "../../../src/config.ts";
import type { Runtime } from "../../../src/runtime.ts";
import { mergedParams, toMockRequest } from "../../helpers/mock_routes.ts";
export { errorOf } from "../../helpers/tool_result.ts";
import { type RecordedRequest, type Route, scriptedFetch } from "../../helpers/runtime.ts";
import { type CallResult, toolHarness } from "../../helpers/tool_harness.ts";

/** Answers a request the way the mock upstream's gene routes would; 599 when none applies. */
export async function geneRoute(request: RecordedRequest): Promise<Response> {
  const mockRequest = toMockRequest(request, "/" + request.url.pathname.split("/").pop());
  for (const route of geneRoutes) {
    const response = await route.handle(mockRequest);
    if (response) return response;
  }
  return new Response(`no gene route for ${request.method} ${request.url}`, { status: 599 });
}

/** A scripted fetch: the given routes first (faults, odd bodies), then the gene mock routes. */
export function geneFetch(...first: Route[]) {
  return scriptedFetch(...first, geneRoute);
}

/** Parameters of every recorded request to `path` (e.g. "/esearch.fcgi"), query and form merged. */
export function paramsOf(requests: RecordedRequest[], path: string): URLSearchParams[] {
  return requests.filter((r) => r.url.pathname.endsWith(path)).map(mergedParams);
}

export type { CallResult };

export interface GeneHarness {
  call(name: string, args: Record<string, unknown>): Promise<CallResult>;
  requests: RecordedRequest[];
  runtime: Runtime;
  close(): Promise<void>;
}

/** An MCP client (the shared tool harness) whose NCBI answers come from the gene mock routes. */
export async function geneHarness(options: { routes?: Route[]; env?: Env } = {}): Promise<GeneHarness> {
  const env = { NCBI_MAX_RETRIES: "0", SCIENCE_MCP_TOOLSETS: "gene", ...options.env };
  return await toolHarness({ routes: options.routes, mockRoutes: geneRoutes, env });
}

/**
 * One tool call on a fresh harness whose NCBI answers come from `route` first (a fault, an odd body),
 * closed afterwards: the shape of every upstream-fault test.
 */
export async function callOnce(route: Route, name: string, args: Record<string, unknown>): Promise<CallResult> {
  const h = await geneHarness({ routes: [route] });
  try {
    return await h.call(name, args);
  } finally {
    await h.close();
  }
}
