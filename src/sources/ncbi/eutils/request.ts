/**
 * The one E-utilities request builder, shared by PubMed and Gene: every call is a path and parameters on
 * the `ncbi-eutils` upstream. GET or POST is not decided here: the upstream definition's one rule
 * (src/upstreams/ncbi_eutils.ts, `postAboveUrlChars`) turns a GET whose URL would be too long into a
 * form POST. Credentials (tool, email, api_key) are added by the pipeline, never here.
 */
import { ToolError, UpstreamError } from "../../../core/errors.ts";
import type { ServiceRequest, ServiceUpstream } from "../../../upstreams/mod.ts";
import type { ParseJob } from "../../parse_job.ts";
import { parseBody } from "../../parse_off_thread.ts";

export type EutilsParams = Record<string, string | number | undefined>;

export interface EutilsCall {
  /** `/esearch.fcgi`, `/esummary.fcgi`, `/efetch.fcgi`, `/elink.fcgi`, `/einfo.fcgi`. */
  path: string;
  params: EutilsParams;
  /** Cache lifetime; default the upstream's. */
  ttlMs?: number;
  signal?: AbortSignal;
}

/** What a call produced: the parsed value, the redacted URL and the method that was sent. */
export interface Fetched<T> {
  value: T;
  url: string;
  method: "GET" | "POST";
}

/** The pipeline request of one E-utilities call. */
export function eutilsRequest(call: EutilsCall): ServiceRequest {
  const request: ServiceRequest = { upstream: "ncbi-eutils", path: call.path, query: call.params };
  if (call.ttlMs !== undefined) request.ttlMs = call.ttlMs;
  if (call.signal) request.signal = call.signal;
  return request;
}

/**
 * Sends one call and parses its body (with a parse job: off the main thread when the body is large; see
 * parse_off_thread.ts). An HTTP 4xx whose body carries NCBI's `<ERROR>` becomes a ToolError
 * with that message (`faultCode` says whether the caller's input or the upstream is to blame).
 */
export async function fetchEutils<T>(
  upstream: ServiceUpstream,
  call: EutilsCall,
  parse: ((body: string, url: string) => T) | ParseJob<[], T>,
  faultCode: "INVALID_INPUT" | "UPSTREAM_ERROR" = "UPSTREAM_ERROR",
): Promise<Fetched<T>> {
  try {
    const response = await upstream.request(eutilsRequest(call));
    const value = typeof parse === "function"
      ? parse(response.text(), response.url)
      : await parseBody(parse, response, [], call.signal);
    return { value, url: response.url, method: response.method ?? "GET" };
  } catch (error) {
    throw structuredFault(error, call.path, faultCode) ?? error;
  }
}

/** NCBI sometimes answers a bad request with HTTP 4xx and an `<ERROR>` body: that message is the useful one. */
function structuredFault(
  error: unknown,
  path: string,
  code: "INVALID_INPUT" | "UPSTREAM_ERROR",
): ToolError | undefined {
  if (!(error instanceof UpstreamError) || !error.status || error.status >= 500 || error.status === 429) return;
  const message = /<ERROR>([\s\S]*?)<\/ERROR>/.exec(error.body ?? "")?.[1]?.trim();
  if (!message) return;
  const utility = path.replace(/^\/|\.fcgi$/g, "");
  return new ToolError(
    code,
    `NCBI ${utility} rejected the request (HTTP ${error.status}): ${message}`,
    code === "INVALID_INPUT"
      ? "Check the query syntax (field tags such as [MeSH Terms], quotes, boolean operators) and retry."
      : "Check the identifiers and retry; if it persists NCBI may be degraded.",
    { cause: error },
  );
}
