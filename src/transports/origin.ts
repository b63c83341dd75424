/**
 * DNS-rebinding protection and browser access for /mcp. A request passes when
 * - its Host names a loopback address, the bind address, or the host of an MCP_ALLOWED_ORIGINS entry; and
 * - it has no Origin (non-browser clients) or its Origin is a loopback origin or listed in MCP_ALLOWED_ORIGINS.
 * Anything else is refused with 403 before authentication. Allowed browser origins get CORS headers.
 */
import type { Config } from "../config.ts";
import { isLoopbackHost } from "./auth.ts";
import { jsonRpcError } from "./http_io.ts";

export interface OriginPolicy {
  /** A 403 response when the request must be refused, otherwise undefined. */
  check(request: Request): Response | undefined;
  /** CORS headers for an allowed browser Origin (empty when there is none). */
  corsHeaders(request: Request): Record<string, string>;
  /** The answer to a CORS preflight (OPTIONS). */
  preflight(request: Request): Response;
}

const WILDCARD_BINDS = new Set(["0.0.0.0", "::", "[::]"]);

export function createOriginPolicy(http: Config["http"]): OriginPolicy {
  const origins = new Set(http.allowedOrigins.map(normalizeOrigin).filter((o): o is string => o !== undefined));
  const hosts = new Set([...origins].map((o) => stripBrackets(new URL(o).hostname)));
  if (!WILDCARD_BINDS.has(http.host)) hosts.add(stripBrackets(http.host.toLowerCase()));

  const originAllowed = (origin: string) => {
    const normalized = normalizeOrigin(origin);
    if (!normalized) return false;
    return origins.has(normalized) || isLoopbackHost(stripBrackets(new URL(normalized).hostname));
  };

  function check(request: Request): Response | undefined {
    const host = hostnameOf(request.headers.get("host") ?? new URL(request.url).host);
    if (host === undefined || !(isLoopbackHost(host) || hosts.has(host))) {
      return jsonRpcError(
        403,
        -32000,
        `Forbidden: Host ${JSON.stringify(request.headers.get("host"))} is not allowed. ` +
          "Add the server's public origin to MCP_ALLOWED_ORIGINS.",
      );
    }
    const origin = request.headers.get("origin");
    if (origin !== null && !originAllowed(origin)) {
      return jsonRpcError(403, -32000, `Forbidden: Origin ${JSON.stringify(origin)} is not in MCP_ALLOWED_ORIGINS.`);
    }
    return undefined;
  }

  function corsHeaders(request: Request): Record<string, string> {
    const origin = request.headers.get("origin");
    if (origin === null || !originAllowed(origin)) return {};
    return {
      "access-control-allow-origin": origin,
      "access-control-expose-headers": "mcp-session-id, mcp-protocol-version, www-authenticate",
      "vary": "Origin",
    };
  }

  function preflight(request: Request): Response {
    const refused = check(request);
    if (refused) return refused;
    return new Response(null, {
      status: 204,
      headers: {
        ...corsHeaders(request),
        "access-control-allow-methods": "GET, POST, DELETE",
        "access-control-allow-headers":
          "authorization, content-type, accept, mcp-session-id, mcp-protocol-version, last-event-id",
        "access-control-max-age": "600",
      },
    });
  }

  return { check, corsHeaders, preflight };
}

/** `https://Example.com:443/` → `https://example.com`; undefined for anything that is not an http(s) origin. */
function normalizeOrigin(value: string): string | undefined {
  try {
    const url = new URL(value.trim());
    if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

/** The hostname of a Host header value (`example.com:3010`, `[::1]:3010`), lower-cased, without brackets. */
function hostnameOf(hostHeader: string): string | undefined {
  try {
    return stripBrackets(new URL(`http://${hostHeader}`).hostname);
  } catch {
    return undefined;
  }
}

function stripBrackets(host: string): string {
  return host.replace(/^\[(.*)\]$/, "$1");
}
