/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) for MCP_AUTH_MODE=oauth: the document a remote MCP
 * client reads to find the authorization server that issues tokens for this server, and where it lives.
 * RFC 9728 §3.1 puts it at the resource URL with `/.well-known/oauth-protected-resource` inserted between
 * host and path (`https://h/.well-known/oauth-protected-resource/mcp` for `https://h/mcp`); the bare
 * well-known path is served too, for clients that look there first.
 */
import type { Config } from "../config.ts";

export const WELL_KNOWN_PREFIX = "/.well-known/oauth-protected-resource";

/** What the metadata says; field names as RFC 9728 §2 spells them. */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  bearer_methods_supported: string[];
  scopes_supported?: string[];
  resource_name: string;
}

/** The resource identifier: MCP_AUTH_RESOURCE_URL, else the audience when it is an http(s) URL. */
export function resourceIdentifier(http: Config["http"]): string | undefined {
  const candidate = http.resourceUrl ?? http.authAudience;
  return candidate && /^https?:\/\/[^/]/i.test(candidate) ? candidate : undefined;
}

/** The absolute URL of the metadata document for a resource identifier (RFC 9728 §3.1). */
export function metadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/+$/, "");
  return `${url.origin}${WELL_KNOWN_PREFIX}${path}`;
}

export function protectedResourceMetadata(http: Config["http"]): ProtectedResourceMetadata {
  return {
    resource: resourceIdentifier(http)!,
    authorization_servers: [http.authIssuer!],
    bearer_methods_supported: ["header"],
    ...(http.requiredScopes.length ? { scopes_supported: [...http.requiredScopes] } : {}),
    resource_name: "science-mcp",
  };
}

/**
 * Serves the metadata at both well-known paths in oauth mode; undefined for any other path or mode, so the
 * caller answers 404 as for any unknown route. Public and cacheable: it holds no secret.
 */
export function serveProtectedResourceMetadata(http: Config["http"], request: Request): Response | undefined {
  if (http.authMode !== "oauth") return undefined;
  const path = new URL(request.url).pathname;
  const own = new URL(metadataUrl(resourceIdentifier(http)!)).pathname;
  if (path !== WELL_KNOWN_PREFIX && path !== own) return undefined;
  const headers = { "access-control-allow-origin": "*", "cache-control": "public, max-age=3600" };
  if (request.method === "OPTIONS") {
    return new Response(null, {
      status: 204,
      headers: { ...headers, "access-control-allow-methods": "GET, HEAD, OPTIONS" },
    });
  }
  if (request.method !== "GET" && request.method !== "HEAD") {
    return Response.json({ error: "Method not allowed." }, { status: 405, headers: { allow: "GET, HEAD" } });
  }
  return Response.json(protectedResourceMetadata(http), { headers });
}
