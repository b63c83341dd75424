/**
 * Bearer-token authentication of the HTTP transport, in one of two modes. `jwt`: HS256 JWTs verified
 * against MCP_AUTH_SECRET_KEY (only HS256, so `alg: none` and algorithm-confusion tokens fail). `oauth`:
 * this server is an OAuth 2.1 protected resource; access tokens come from an external authorization server
 * and are verified against its JWKS (asymmetric algorithms only, issuer and audience required), and every
 * challenge links the RFC 9728 metadata. In both, `exp` and `sub` are required (sessions and their quota
 * belong to a subject), `nbf` is honoured, a token may live at most MCP_AUTH_MAX_TOKEN_LIFETIME_S, and
 * MCP_AUTH_SCOPES are required when set. Refusals are 401 (403 for missing scopes) with a
 * `WWW-Authenticate` challenge (RFC 6750).
 */
import { createRemoteJWKSet, customFetch, type JWTPayload, jwtVerify } from "npm:jose@6.2.17";
import { type Config, ConfigError } from "../config.ts";
import type { Clock } from "../core/clock.ts";
import type { AuthInfo } from "../sdk.ts";
import { jsonRpcError } from "./http_io.ts";
import { metadataUrl, resourceIdentifier } from "./protected_resource.ts";

/** HS256 needs a key at least as long as its hash output (RFC 7518 §3.2). */
export const MIN_SECRET_BYTES = 32;
const REALM = "science-mcp";

export type AuthResult =
  /** `expiresAt`: the token's `exp` in ms; sessions opened with it are reaped once it has passed. */
  | { ok: true; subject: string; expiresAt?: number; info?: AuthInfo }
  | { ok: false; response: Response; reason: string };

export type Authenticator = (request: Request) => Promise<AuthResult>;

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Refuses unsafe HTTP settings before anything listens: JWT mode needs a long enough secret, and
 * MCP_AUTH_MODE=none is only allowed on a loopback bind address.
 */
export function assertHttpSecurity(http: Config["http"]): void {
  if (http.authMode === "none") {
    if (!isLoopbackHost(http.host)) {
      throw new ConfigError(
        `MCP_AUTH_MODE=none is only allowed when MCP_HTTP_HOST is a loopback address (127.0.0.1, ::1, ` +
          `localhost); MCP_HTTP_HOST is ${JSON.stringify(http.host)}. Set MCP_AUTH_SECRET_KEY and use jwt.`,
      );
    }
    return;
  }
  if (http.authMode === "oauth") return assertOAuthSettings(http);
  const bytes = new TextEncoder().encode(http.authSecret ?? "").byteLength;
  if (bytes < MIN_SECRET_BYTES) {
    throw new ConfigError(
      `Invalid environment variable MCP_AUTH_SECRET_KEY: HTTP with MCP_AUTH_MODE=jwt needs a secret of at ` +
        `least ${MIN_SECRET_BYTES} bytes (got ${bytes}). Generate one with: openssl rand -base64 48`,
    );
  }
}

/** oauth needs the authorization server (issuer, keys) and this resource's identity (audience, URL). */
function assertOAuthSettings(http: Config["http"]): void {
  const need = (name: string, why: string) => {
    throw new ConfigError(`MCP_AUTH_MODE=oauth needs ${name}: ${why}.`);
  };
  if (!http.authIssuer) need("MCP_AUTH_ISSUER", "the issuer (iss) of your authorization server's tokens");
  if (!http.jwksUrl) need("MCP_AUTH_JWKS_URL", "the JWKS URL of your authorization server (its jwks_uri)");
  if (!http.authAudience) {
    need("MCP_AUTH_AUDIENCE", "the audience (aud) your authorization server puts in tokens for this server");
  }
  if (!resourceIdentifier(http)) {
    need("MCP_AUTH_RESOURCE_URL", "the public https URL of this server's /mcp endpoint (the audience is not a URL)");
  }
}

/** Builds the request authenticator for the configured mode. */
export function createAuthenticator(http: Config["http"], clock: Clock): Authenticator {
  if (http.authMode === "none") return () => Promise.resolve({ ok: true, subject: "" });
  const verify = http.authMode === "oauth" ? oauthVerifier(http, clock) : hs256Verifier(http, clock);
  // MCP 2025-11-25 (authorization, scope selection): a 401 names the scopes the server knows it needs.
  const challenge: Record<string, string> = {
    ...(http.requiredScopes.length ? { scope: http.requiredScopes.join(" ") } : {}),
    ...(http.authMode === "oauth" ? { resource_metadata: metadataUrl(resourceIdentifier(http)!) } : {}),
  };
  return async (request) => {
    const header = request.headers.get("authorization");
    if (!header) return refuse("missing bearer token", undefined, challenge);
    const match = /^Bearer\s+([A-Za-z0-9._~+/=-]+)\s*$/i.exec(header);
    if (!match) return refuse("the Authorization header is not a Bearer token", "invalid_request", challenge);
    const verified = await verify(match[1]);
    if (!verified.ok) {
      if (verified.unavailable) return unavailable(verified.reason);
      return refuse(verified.reason, "invalid_token", challenge);
    }
    const payload = verified.payload;
    if (typeof payload.sub !== "string" || payload.sub.trim() === "") {
      const how = http.authMode === "oauth"
        ? "the authorization server must issue tokens with `sub`"
        : "mint one with: deno task token --sub NAME";
      return refuse(`token has no subject (sub claim); ${how}`, "invalid_token", challenge);
    }
    const exp = payload.exp!;
    // From iat, or from now when iat is missing or in the future (a forged iat must not shorten it).
    const now = clock.now() / 1000;
    const lifetime = exp - Math.min(typeof payload.iat === "number" ? payload.iat : now, now);
    if (lifetime > http.maxTokenLifetimeS) {
      return refuse(
        `token lifetime ${Math.round(lifetime)} s exceeds ${http.maxTokenLifetimeS} s (MCP_AUTH_MAX_TOKEN_LIFETIME_S)`,
        "invalid_token",
        challenge,
      );
    }
    const scopes = tokenScopes(payload);
    const missing = http.requiredScopes.filter((s) => !scopes.includes(s));
    if (missing.length) return insufficientScope(missing, http.requiredScopes, challenge);
    return {
      ok: true,
      subject: payload.sub,
      expiresAt: exp * 1000,
      info: { token: match[1], clientId: clientId(payload), scopes, expiresAt: exp },
    };
  };
}

type Verified =
  | { ok: true; payload: JWTPayload }
  | { ok: false; reason: string; unavailable?: boolean };
type Verifier = (token: string) => Promise<Verified>;

function hs256Verifier(http: Config["http"], clock: Clock): Verifier {
  const key = new TextEncoder().encode(http.authSecret);
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: ["HS256"],
        requiredClaims: ["exp"],
        audience: http.authAudience,
        issuer: http.authIssuer,
        currentDate: new Date(clock.now()),
      });
      return { ok: true, payload };
    } catch (error) {
      return { ok: false, reason: describeJwtError(error, "HS256 only") };
    }
  };
}

/**
 * oauth: access tokens of an external authorization server, checked against its JWKS (fetched on first
 * use, cached ten minutes, fetched again when a token names an unknown key, at most every 30 s). Only
 * asymmetric algorithms, so a token signed with the public key as an HMAC secret fails; issuer and
 * audience are required.
 */
function oauthVerifier(http: Config["http"], clock: Clock): Verifier {
  const jwks = createRemoteJWKSet(new URL(http.jwksUrl!), {
    timeoutDuration: 5_000,
    cooldownDuration: 30_000,
    cacheMaxAge: 600_000,
    [customFetch]: cappedJwksFetch,
  });
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, jwks, {
        algorithms: OAUTH_ALGORITHMS,
        requiredClaims: ["exp", "iss", "aud"],
        audience: http.authAudience,
        issuer: http.authIssuer,
        currentDate: new Date(clock.now()),
      });
      return { ok: true, payload };
    } catch (error) {
      if (error instanceof JwksRefused) {
        return {
          ok: false,
          unavailable: true,
          reason: `the authorization server's keys (MCP_AUTH_JWKS_URL) were refused: ${error.message}`,
        };
      }
      const code = (error as { code?: string })?.code;
      if (code === "ERR_JWKS_TIMEOUT" || code === "ERR_JOSE_GENERIC" || error instanceof TypeError) {
        return {
          ok: false,
          unavailable: true,
          reason: "the authorization server's keys (MCP_AUTH_JWKS_URL) could not be read",
        };
      }
      return { ok: false, reason: describeJwtError(error, OAUTH_ALGORITHMS.join("/") + " only") };
    }
  };
}

/** A key set larger than any authorization server publishes is refused (a 300,000-key set took 2.9 s). */
export const JWKS_MAX_KEYS = 100;
export const JWKS_MAX_BYTES = 256 * 1024;

/** A key set over the caps; the message says which and by how much. */
class JwksRefused extends Error {}

/**
 * The JWKS fetch jose makes, with the caps: the body read at most to {@link JWKS_MAX_BYTES}, and a set of
 * more than {@link JWKS_MAX_KEYS} keys refused before jose imports a single key.
 */
async function cappedJwksFetch(url: string, init: RequestInit): Promise<Response> {
  const response = await fetch(url, init);
  if (response.status !== 200 || !response.body) return response;
  const limit = `at most ${JWKS_MAX_BYTES / 1024} KB`;
  const declared = Number(response.headers.get("content-length"));
  if (declared > JWKS_MAX_BYTES) {
    await response.body.cancel().catch(() => {});
    throw new JwksRefused(`the key set is ${declared} bytes (${limit})`);
  }
  const decoder = new TextDecoder();
  let text = "";
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > JWKS_MAX_BYTES) throw new JwksRefused(`the key set is larger than ${limit}`);
    text += decoder.decode(chunk, { stream: true });
  }
  text += decoder.decode();
  let keys: unknown;
  try {
    keys = JSON.parse(text)?.keys;
  } catch {
    return new Response(text, { status: 200, headers: response.headers }); // jose reports the parse error
  }
  if (Array.isArray(keys) && keys.length > JWKS_MAX_KEYS) {
    throw new JwksRefused(`the key set holds ${keys.length} keys (at most ${JWKS_MAX_KEYS})`);
  }
  return new Response(text, { status: 200, headers: response.headers });
}

/** Signature algorithms accepted in oauth mode: asymmetric only. */
const OAUTH_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "ES256", "ES384", "EdDSA"];

/** `scope` (RFC 8693/9068, space-separated) or `scp` (an array or a string, as some providers send it). */
function tokenScopes(payload: JWTPayload): string[] {
  const raw = payload.scope ?? payload.scp;
  if (typeof raw === "string") return raw.split(" ").filter(Boolean);
  if (Array.isArray(raw)) return raw.filter((s): s is string => typeof s === "string");
  return [];
}

/** RFC 9068 `client_id` when the token has one (oauth), else the subject (as before). */
function clientId(payload: JWTPayload): string {
  return typeof payload.client_id === "string" ? payload.client_id : payload.sub!;
}

/** A 401 whose challenge (RFC 6750 §3) names the error and, in oauth mode, the metadata (RFC 9728 §5.1). */
function refuse(
  reason: string,
  error: "invalid_token" | "invalid_request" | undefined,
  extra: Record<string, string>,
): AuthResult {
  const params = { realm: REALM, ...(error ? { error, error_description: reason } : {}), ...extra };
  return {
    ok: false,
    reason,
    response: jsonRpcError(401, -32001, `Unauthorized: ${reason}.`, { "www-authenticate": bearer(params) }),
  };
}

/** A 403 for a valid token without the scopes MCP_AUTH_SCOPES requires (RFC 6750 §3.1). */
function insufficientScope(missing: string[], required: string[], extra: Record<string, string>): AuthResult {
  const reason = `token lacks the scope ${missing.join(" ")} (MCP_AUTH_SCOPES)`;
  const params = { realm: REALM, error: "insufficient_scope", scope: required.join(" "), ...extra };
  return {
    ok: false,
    reason,
    response: jsonRpcError(403, -32001, `Forbidden: ${reason}.`, { "www-authenticate": bearer(params) }),
  };
}

/** The token could not be checked at all (the keys are unreachable): not the client's fault, so no 401. */
function unavailable(reason: string): AuthResult {
  return {
    ok: false,
    reason,
    response: jsonRpcError(503, -32000, `Service unavailable: ${reason}; try again shortly.`, { "retry-after": "30" }),
  };
}

function bearer(params: Record<string, string>): string {
  return "Bearer " + Object.entries(params).map(([k, v]) => `${k}="${v.replaceAll('"', "'")}"`).join(", ");
}

/** Short, safe reasons (no token contents) for the challenge and the log. */
function describeJwtError(error: unknown, algorithms: string): string {
  const code = (error as { code?: string })?.code;
  const claim = (error as { claim?: string })?.claim;
  switch (code) {
    case "ERR_JWT_EXPIRED":
      return "token expired";
    case "ERR_JWT_CLAIM_VALIDATION_FAILED":
      if (claim === "nbf") return "token not yet valid";
      if (claim === "aud") return "token audience (aud) is not MCP_AUTH_AUDIENCE";
      if (claim === "iss") return "token issuer (iss) is not MCP_AUTH_ISSUER";
      return `claim ${claim ?? "?"} failed validation`;
    case "ERR_JOSE_ALG_NOT_ALLOWED":
      return `algorithm not allowed (${algorithms})`;
    case "ERR_JWS_SIGNATURE_VERIFICATION_FAILED":
      return "bad signature";
    case "ERR_JWKS_NO_MATCHING_KEY":
    case "ERR_JWKS_MULTIPLE_MATCHING_KEYS":
      return "no key of the authorization server matches the token (kid)";

    default:
      return "malformed token";
  }
}
