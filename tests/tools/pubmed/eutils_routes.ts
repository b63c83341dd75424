/** Test helper: scripted E-utilities answers, by utility, and the PubMed mock routes as a scripted route. */
import { ncbiRoutes } from "../../../scripts/mock_routes/ncbi.ts";
import { mergedParams, toMockRequest } from "../../helpers/mock_routes.ts";
import { fixture, type RecordedRequest, type Route } from "../../helpers/runtime.ts";

export type Utility = "esearch" | "esummary" | "efetch" | "elink" | "einfo";
type Handler = (params: URLSearchParams, request: RecordedRequest) => Response | undefined;

export function utilityOf(request: RecordedRequest): string {
  return /\/(\w+)\.fcgi$/.exec(request.url.pathname)?.[1] ?? "";
}

/** Answers E-utilities requests with the handler registered for their utility. */
export function eutils(handlers: Partial<Record<Utility, Handler>>): Route {
  return (request) => handlers[utilityOf(request) as Utility]?.(mergedParams(request), request);
}

export function xml(body: string, status = 200): Response {
  return new Response(body, { status, headers: { "content-type": "text/xml; charset=UTF-8" } });
}

export function fixtureXml(path: string, status = 200): Response {
  return xml(fixture(path), status);
}

/** The mock upstream's PubMed routes (scripts/mock_routes/ncbi.ts, all synchronous), served in-process. */
export function mockRoutes(): Route {
  return (request) => {
    const path = `/${utilityOf(request)}.fcgi`;
    for (const route of ncbiRoutes) {
      const response = route.handle(toMockRequest(request, path));
      if (response instanceof Promise) throw new Error(`mock route ${route.name} is asynchronous`);
      if (response) return response;
    }
    return undefined;
  };
}

/** Requests to one utility, in order. */
export function callsTo(requests: RecordedRequest[], utility: Utility): RecordedRequest[] {
  return requests.filter((r) => utilityOf(r) === utility);
}
