/**
 * From an adapter's {@link UpstreamRequest} to what goes on the wire: base URL, query, credentials,
 * User-Agent, GET or POST, form body, and the keys the cache and the coalescer use. Credentials are added
 * here and only here; everything that leaves the pipeline (URLs in responses, errors and logs) goes
 * through {@link makeRedactor}.
 */
import { redact } from "../core/log.ts";
import type { UpstreamPolicy } from "./policies.ts";
import type { UpstreamRequest } from "./types.ts";
import { cutValue } from "../core/clip.ts";

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

/** What every request of one pipeline shares: the User-Agent and the redactor. */
export interface Identity {
  userAgent: string;
  redactText: (text: string) => string;
}

/**
 * `science-mcp/0.1.0 (+https://github.com/science-mcp/science-mcp; mailto:admin@example.org)`: the
 * product, the project page, and the first contact address any policy carries.
 */
export function userAgent(product: string, policies: readonly UpstreamPolicy[]): string {
  const contact = policies.find((p) => p.contact)?.contact;
  return `${product} (+${PROJECT_URL}${contact ? `; mailto:${contact}` : ""})`;
}

/**
 * A function that removes secrets from any text: secret-bearing query parameters (log.ts `redact`) and
 * the literal secret values of every policy wherever they appear (a service may echo its key in an error).
 */
export function makeRedactor(policies: readonly UpstreamPolicy[]): (text: string) => string {
  const secrets = [...new Set(policies.flatMap((p) => p.secrets))]
    .filter((s) => s.length >= 4)
    .flatMap((s) => [s, encodeURIComponent(s)])
    .sort((a, b) => b.length - a.length);
  return (text) => {
    let out = redact(text);
    for (const secret of secrets) out = out.replaceAll(secret, "REDACTED");
    return out;
  };
}

export function buildRequest(req: UpstreamRequest, policy: UpstreamPolicy, identity: Identity): BuiltRequest {
  const url = new URL(req.url ?? policy.baseUrl + (req.path ?? ""));
  for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const creds = policy.credentials;
  const method = req.method ?? (req.form || tooLongForGet(url, creds, policy) ? "POST" : "GET");
  let body: string | undefined;
  if (method === "POST") {
    const form = new URLSearchParams();
    // A POST chosen for length carries the query in its form; an explicit POST keeps the query where it is.
    if (!req.method && !req.form) {
      for (const [k, v] of url.searchParams) form.set(k, v);
      url.search = "";
    }
    for (const [k, v] of Object.entries(req.form ?? {})) if (v !== undefined) form.set(k, String(v));
    for (const [k, v] of Object.entries(creds)) form.set(k, v);
    body = form.toString();
  } else {
    for (const [k, v] of Object.entries(creds)) url.searchParams.set(k, v);
  }
  const headers: [string, string][] = [["user-agent", identity.userAgent]];
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
    // Errors and logs quote it: a URL from a record (a pdf_url) may be 200,000 characters long.
    shownUrl: cutValue(identity.redactText(href)),
    host: url.host,
    cacheKey: [method, href, body ?? "", `accept=${req.accept ?? ""}`, `redirect=${redirect}`].join("\n"),
  };
}

/** The policy's one GET/POST rule: the GET URL, credentials included, would pass `postAboveUrlChars`. */
function tooLongForGet(url: URL, creds: Readonly<Record<string, string>>, policy: UpstreamPolicy): boolean {
  if (policy.postAboveUrlChars === undefined) return false;
  const probe = new URL(url);
  for (const [k, v] of Object.entries(creds)) probe.searchParams.set(k, v);
  return probe.href.length > policy.postAboveUrlChars;
}
