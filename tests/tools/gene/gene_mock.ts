/**
 * Test wiring for the gene tools: a scripted fetch answered by the same routes the mock upstream serves
 * (scripts/mock_routes/gene.ts), so MCP tests and offline runs see identical bodies, and every request
 * is recorded for assertions.
 */
import { geneRoutes } from "../../../scripts/mock_routes/gene.ts";
import type { Env } from "../../../src/config.ts";
import type { Runtime } from "../../../src/runtime.ts";
import { connectClient, type RecordedRequest, type Route, scriptedFetch, testRuntime } from "../../helpers/runtime.ts";

/** Answers a request the way the mock upstream's gene routes would; 599 when none applies. */
export async function geneRoute(request: RecordedRequest): Promise<Response> {
  const params = new URLSearchParams(request.url.search);
  if (request.body) { for (const [k, v] of new URLSearchParams(request.body)) params.append(k, v); }
  const path = "/" + request.url.pathname.split("/").pop();
  for (const route of geneRoutes) {
    const response = await route.handle({ method: request.method, path, params, url: request.url, body: request.body });
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
  return requests.filter((r) => r.url.pathname.endsWith(path)).map((r) => {
    const params = new URLSearchParams(r.url.search);
    if (r.body) { for (const [k, v] of new URLSearchParams(r.body)) params.append(k, v); }
    return params;
  });
}

export interface GeneHarness {
  call(name: string, args: Record<string, unknown>): Promise<CallResult>;
  requests: RecordedRequest[];
  runtime: Runtime;
  close(): Promise<void>;
}

export interface CallResult {
  isError?: boolean;
  structuredContent: Record<string, unknown>;
  content: { type: string; text: string }[];
}

/** An MCP client connected to a server whose NCBI answers come from the gene mock routes. */
export async function geneHarness(options: { routes?: Route[]; env?: Env } = {}): Promise<GeneHarness> {
  const fetch = geneFetch(...(options.routes ?? []));
  const runtime = testRuntime({ fetch, env: { NCBI_MAX_RETRIES: "0", SCIENCE_MCP_TOOLSETS: "gene", ...options.env } });
  const { client, close } = await connectClient(runtime);
  return {
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as unknown as CallResult,
    requests: fetch.requests,
    runtime,
    close,
  };
}

export function errorOf(
  result: CallResult,
): { code: string; message: string; recovery_hint: string; invalid_input?: unknown } {
  return (result.structuredContent as { error: never }).error;
}
