/**
 * From an adapter's {@link UpstreamRequest} to what goes on the wire: base URL, query, credentials,
 * User-Agent, form body, and the keys the cache and the coalescer use. Credentials are added here and
 * only here; everything that leaves the pipeline (URLs in responses, errors and logs) goes through
 * {@link makeRedactor}.
 */
import { type Config, VERSION } from "../config.ts";
import { redact } from "../core/log.ts";
import type { UpstreamPolicy } from "./policies.ts";
import type { UpstreamName, UpstreamRequest } from "./types.ts";

/** Project page named in the User-Agent so upstream operators can find us. */
export const PROJECT_URL = "https://github.com/science-mcp/science-mcp";

/** Everything needed to send one attempt (a fresh `Request` is made per attempt: bodies are one-shot). */
export interface BuiltRequest {
  method: "GET" | "POST";
  /** Full URL, credentials included: never log or show it. */
  url: string;
  headers: [string, string][];
  /** Form body (POST), credentials included. */
  body?: string;
  redirect: "follow" | "manual";
  /** Same URL, secrets redacted: safe for responses, errors and logs. */
  shownUrl: string;
  /** Host as written in the URL (names the upstream in messages). */
  host: string;
  /** Cache key: method, full URL (credentials included), form body and what changes the answer. */
  cacheKey: string;
}

/** NCBI and OpenAlex credentials, added in this one place and redacted everywhere else. */
export function credentials(upstream: UpstreamName, config: Config): Record<string, string> {
  const out: Record<string, string> = {};
  if (upstream === "ncbi-eutils") {
    out.tool = config.ncbi.tool;
    if (config.ncbi.email) out.email = config.ncbi.email;
    if (config.ncbi.apiKey) out.api_key = config.ncbi.apiKey;
  } else if (upstream === "ncbi-idconv") {
    out.tool = config.ncbi.tool;
    if (config.ncbi.email) out.email = config.ncbi.email;
  } else if (upstream === "openalex") {
    if (config.openalex.apiKey) out.api_key = config.openalex.apiKey;
    if (config.openalex.mailto) out.mailto = config.openalex.mailto;
  }
  return out;
}

/** `science-mcp/0.1.0 (+https://github.com/science-mcp/science-mcp; mailto:admin@example.org)`. */
function userAgent(config: Config): string {
  const contact = config.ncbi.email ?? config.openalex.mailto;
  return `science-mcp/${VERSION} (+${PROJECT_URL}${contact ? `; mailto:${contact}` : ""})`;
}

/**
 * A function that removes secrets from any text: secret-bearing query parameters (log.ts `redact`) and
 * the literal configured secrets wherever they appear (NCBI echoes the key in its rate-limit JSON).
 */
export function makeRedactor(config: Config): (text: string) => string {
  const secrets = [config.ncbi.apiKey, config.ncbi.email, config.openalex.apiKey, config.openalex.mailto]
    .filter((s): s is string => !!s && s.length >= 4)
    .flatMap((s) => [s, encodeURIComponent(s)])
    .sort((a, b) => b.length - a.length);
  return (text) => {
    let out = redact(text);
    for (const secret of secrets) out = out.replaceAll(secret, "REDACTED");
    return out;
  };
}

export function buildRequest(
  req: UpstreamRequest,
  policy: UpstreamPolicy,
  config: Config,
  redactText: (text: string) => string,
): BuiltRequest {
  const method = req.method ?? (req.form ? "POST" : "GET");
  const url = new URL(req.url ?? policy.baseUrl + (req.path ?? ""));
  for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const creds = credentials(req.upstream, config);
  let body: string | undefined;
  if (method === "POST") {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(req.form ?? {})) if (v !== undefined) form.set(k, String(v));
    for (const [k, v] of Object.entries(creds)) form.set(k, v);
    body = form.toString();
  } else {
    for (const [k, v] of Object.entries(creds)) url.searchParams.set(k, v);
  }
  const headers: [string, string][] = [["user-agent", userAgent(config)]];
  if (req.accept) headers.push(["accept", req.accept]);
  if (body !== undefined) headers.push(["content-type", "application/x-www-form-urlencoded"]);
  const redirect = req.redirect ?? "follow";
  const href = url.toString();
  return {
    method,
    url: href,
    headers,
    body,
    redirect,
    shownUrl: redactText(href),
    host: url.host,
    cacheKey: [method, href, body ?? "", `accept=${req.accept ?? ""}`, `redirect=${redirect}`].join("\n"),
  };
}
