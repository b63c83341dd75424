/**
 * Bearer-token authentication of the HTTP transport: HS256 JWTs (jose), verified against
 * MCP_AUTH_SECRET_KEY. Only HS256 is accepted, so `alg: none` and algorithm-confusion tokens fail; `exp`
 * and `sub` are required (sessions and their quota belong to a subject), `nbf` is honoured, `aud`/`iss`
 * are checked when configured, and a token may live at most MCP_AUTH_MAX_TOKEN_LIFETIME_S. Every refusal
 * is a 401 with a `WWW-Authenticate` challenge (RFC 6750).
 */
import { type JWTPayload, jwtVerify } from "jose";
import { type Config, ConfigError } from "../config.ts";
import type { Clock } from "../core/clock.ts";
import type { AuthInfo } from "../sdk.ts";
import { jsonRpcError } from "./http_io.ts";

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
  const bytes = new TextEncoder().encode(http.authSecret ?? "").byteLength;
  if (bytes < MIN_SECRET_BYTES) {
    throw new ConfigError(
      `Invalid environment variable MCP_AUTH_SECRET_KEY: HTTP with MCP_AUTH_MODE=jwt needs a secret of at ` +
        `least ${MIN_SECRET_BYTES} bytes (got ${bytes}). Generate one with: openssl rand -base64 48`,
    );
  }
}

/** Builds the request authenticator for the configured mode. */
export function createAuthenticator(http: Config["http"], clock: Clock): Authenticator {
  if (http.authMode === "none") return () => Promise.resolve({ ok: true, subject: "" });
  const key = new TextEncoder().encode(http.authSecret);
  return async (request) => {
    const header = request.headers.get("authorization");
    if (!header) return refuse("missing bearer token", undefined);
    const match = /^Bearer\s+([A-Za-z0-9._~+/=-]+)\s*$/i.exec(header);
    if (!match) return refuse("the Authorization header is not a Bearer token", "invalid_request");
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(match[1], key, {
        algorithms: ["HS256"],
        requiredClaims: ["exp"],
        audience: http.authAudience,
        issuer: http.authIssuer,
        currentDate: new Date(clock.now()),
      }));
    } catch (error) {
      return refuse(describeJwtError(error), "invalid_token");
    }
    if (typeof payload.sub !== "string" || payload.sub.trim() === "") {
      return refuse("token has no subject (sub claim); mint one with: deno task token --sub NAME", "invalid_token");
    }
    const exp = payload.exp!;
    // From iat, or from now when iat is missing or in the future (a forged iat must not shorten it).
    const now = clock.now() / 1000;
    const lifetime = exp - Math.min(typeof payload.iat === "number" ? payload.iat : now, now);
    if (lifetime > http.maxTokenLifetimeS) {
      return refuse(
        `token lifetime ${Math.round(lifetime)} s exceeds ${http.maxTokenLifetimeS} s (MCP_AUTH_MAX_TOKEN_LIFETIME_S)`,
        "invalid_token",
      );
    }
    return {
      ok: true,
      subject: payload.sub,
      expiresAt: exp * 1000,
      info: {
        token: match[1],
        clientId: payload.sub,
        scopes: typeof payload.scope === "string" ? payload.scope.split(" ").filter(Boolean) : [],
        expiresAt: exp,
      },
    };
  };
}

function refuse(reason: string, error: "invalid_token" | "invalid_request" | undefined): AuthResult {
  const challenge = error
    ? `Bearer realm="${REALM}", error="${error}", error_description="${reason}"`
    : `Bearer realm="${REALM}"`;
  return {
    ok: false,
    reason,
    response: jsonRpcError(401, -32001, `Unauthorized: ${reason}.`, { "www-authenticate": challenge }),
  };
}

/** Short, safe reasons (no token contents) for the challenge and the log. */
function describeJwtError(error: unknown): string {
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
      return "algorithm not allowed (HS256 only)";
    case "ERR_JWS_SIGNATURE_VERIFICATION_FAILED":
      return "bad signature";
    default:
      return "malformed token";
  }
}
