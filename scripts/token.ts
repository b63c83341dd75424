/**
 * Mints a development JWT for the HTTP transport: HS256, signed with MCP_AUTH_SECRET_KEY, with `sub`,
 * `iat`, `nbf` and `exp` (the server requires `exp` and `sub`), plus `aud`/`iss` when the server checks
 * them (MCP_AUTH_AUDIENCE, MCP_AUTH_ISSUER). The subject is required: sessions and their quota belong to it.
 *
 * Usage: `MCP_AUTH_SECRET_KEY=… deno task token --sub NAME [--ttl 3600|30m|12h|7d]`
 * Prints the token on stdout (so `TOKEN=$(deno task token --sub alice)` works) and a usage hint on stderr.
 */
import { SignJWT } from "jose";
import { loadConfig, readEnv } from "../src/config.ts";
import { assertHttpSecurity } from "../src/transports/auth.ts";

export interface TokenOptions {
  /** Default `dev` (tests); the command line requires --sub. */
  subject?: string;
  ttlSeconds?: number;
  audience?: string;
  issuer?: string;
  /** Issue time in ms (tests mint expired or future tokens with it). */
  now?: number;
}

export async function mintToken(secret: string, options: TokenOptions = {}): Promise<string> {
  const iat = Math.floor((options.now ?? Date.now()) / 1000);
  const jwt = new SignJWT({})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(options.subject ?? "dev")
    .setIssuedAt(iat)
    .setNotBefore(iat)
    .setExpirationTime(iat + (options.ttlSeconds ?? 3600));
  if (options.audience) jwt.setAudience(options.audience);
  if (options.issuer) jwt.setIssuer(options.issuer);
  return await jwt.sign(new TextEncoder().encode(secret));
}

/** `3600`, `30m`, `12h`, `7d` → seconds. */
export function parseTtl(text: string): number {
  const match = /^(\d+)([smhd]?)$/.exec(text.trim());
  if (!match) throw new Error(`--ttl must look like 3600, 30m, 12h or 7d (got ${JSON.stringify(text)})`);
  return Number(match[1]) * { "": 1, s: 1, m: 60, h: 3600, d: 86400 }[match[2] as "" | "s" | "m" | "h" | "d"];
}

if (import.meta.main) {
  const args = Deno.args;
  const value = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  try {
    const config = loadConfig(readEnv());
    if (config.http.authMode === "none") {
      throw new Error("MCP_AUTH_MODE=none: the server accepts requests without a token.");
    }
    if (config.http.authMode === "oauth") {
      throw new Error(
        `MCP_AUTH_MODE=oauth: tokens come from your authorization server (${config.http.authIssuer}), not from this script.`,
      );
    }
    assertHttpSecurity({ ...config.http, authMode: "jwt" });
    const subject = value("--sub")?.trim();
    if (!subject || subject.startsWith("--")) {
      throw new Error("--sub NAME is required: the server binds sessions and their quota to the token's subject.");
    }
    const ttl = parseTtl(value("--ttl") ?? "3600");
    if (ttl > config.http.maxTokenLifetimeS) {
      throw new Error(
        `--ttl ${ttl} s is longer than the server accepts (MCP_AUTH_MAX_TOKEN_LIFETIME_S=${config.http.maxTokenLifetimeS}).`,
      );
    }
    const token = await mintToken(config.http.authSecret!, {
      subject,
      ttlSeconds: ttl,
      audience: config.http.authAudience,
      issuer: config.http.authIssuer,
    });
    console.log(token);
    console.error(
      `# valid for ${ttl} s; send it as "Authorization: Bearer <token>" to ` +
        `http://${config.http.host}:${config.http.port}/mcp`,
    );
  } catch (error) {
    console.error(`error: ${(error as Error).message}`);
    Deno.exit(1);
  }
}
