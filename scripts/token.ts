/**
 * Mints a development JWT for the HTTP transport: HS256, signed with MCP_AUTH_SECRET_KEY, with `sub`,
 * `iat`, `nbf` and `exp` (the server requires `exp`).
 *
 * Usage: `MCP_AUTH_SECRET_KEY=… deno task token [--sub NAME] [--ttl 3600|30m|12h|7d]`
 * Prints the token on stdout (so `TOKEN=$(deno task token)` works) and a usage hint on stderr.
 */
import { SignJWT } from "jose";
import { loadConfig, readEnv } from "../src/config.ts";
import { assertHttpSecurity } from "../src/transports/auth.ts";

export interface TokenOptions {
  subject?: string;
  ttlSeconds?: number;
  /** Issue time in ms (tests mint expired or future tokens with it). */
  now?: number;
}

export async function mintToken(secret: string, options: TokenOptions = {}): Promise<string> {
  const iat = Math.floor((options.now ?? Date.now()) / 1000);
  return await new SignJWT({})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(options.subject ?? "dev")
    .setIssuedAt(iat)
    .setNotBefore(iat)
    .setExpirationTime(iat + (options.ttlSeconds ?? 3600))
    .sign(new TextEncoder().encode(secret));
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
    assertHttpSecurity({ ...config.http, authMode: "jwt" });
    const ttl = parseTtl(value("--ttl") ?? "3600");
    const token = await mintToken(config.http.authSecret!, { subject: value("--sub") ?? "dev", ttlSeconds: ttl });
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
