import assert from "node:assert/strict";
import { generateKeyPair, SignJWT } from "jose";
import { ConfigError } from "../../src/config.ts";
import { ManualClock } from "../../src/core/clock.ts";
import { assertHttpSecurity } from "../../src/transports/auth.ts";
import { createHttpHandler } from "../../src/transports/http.ts";
import { mintToken } from "../../scripts/token.ts";
import { testConfig, testRuntime } from "../helpers/runtime.ts";
import { INITIALIZE, rawRequest, readMessage, SECRET } from "./http_helpers.ts";

const NOW = 1_700_000_000_000;
const key = new TextEncoder().encode(SECRET);

function base64url(value: unknown): string {
  return btoa(JSON.stringify(value)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

Deno.test("unsafe HTTP settings stop startup with a message naming the variable", async (t) => {
  await t.step("MCP_AUTH_MODE=none is refused on a non-loopback bind address", () => {
    const http = testConfig({ MCP_AUTH_MODE: "none", MCP_HTTP_HOST: "0.0.0.0" }).http;
    assert.throws(
      () => assertHttpSecurity(http),
      (e: Error) => e instanceof ConfigError && /MCP_HTTP_HOST/.test(e.message),
    );
  });
  await t.step("MCP_AUTH_MODE=none is accepted on loopback", () => {
    for (const host of ["127.0.0.1", "localhost", "::1"]) {
      assertHttpSecurity(testConfig({ MCP_AUTH_MODE: "none", MCP_HTTP_HOST: host }).http);
    }
  });
  await t.step("jwt mode needs a secret of at least 32 bytes", () => {
    for (const secret of [undefined, "short", "x".repeat(31)]) {
      const http = testConfig({ MCP_AUTH_SECRET_KEY: secret }).http;
      assert.throws(() => assertHttpSecurity(http), /MCP_AUTH_SECRET_KEY.*32 bytes/);
    }
    assertHttpSecurity(testConfig({ MCP_AUTH_SECRET_KEY: "x".repeat(32) }).http);
  });
  await t.step("the handler itself refuses to start with an unsafe configuration", () => {
    const runtime = testRuntime({ env: { MCP_AUTH_MODE: "none", MCP_HTTP_HOST: "0.0.0.0" } });
    assert.throws(() => createHttpHandler(runtime, { reapIntervalMs: 0 }), ConfigError);
  });
});

Deno.test("JWT authentication accepts only valid HS256 tokens", async (t) => {
  const runtime = testRuntime({ clock: new ManualClock(NOW), env: { MCP_AUTH_SECRET_KEY: SECRET } });
  const handler = createHttpHandler(runtime, { reapIntervalMs: 0 });
  const expect401 = async (token: string | undefined, reason: RegExp, header?: Record<string, string>) => {
    const response = await handler.fetch(rawRequest(INITIALIZE, { token, headers: header }));
    assert.equal(response.status, 401);
    const challenge = response.headers.get("www-authenticate") ?? "";
    assert.match(challenge, /^Bearer realm="science-mcp"/);
    const body = await response.json();
    assert.match(body.error.message, reason);
    return challenge;
  };
  try {
    await t.step("a missing token gets a bare challenge", async () => {
      const challenge = await expect401(undefined, /missing bearer token/);
      assert.equal(challenge, 'Bearer realm="science-mcp"');
    });
    await t.step("a non-Bearer scheme is an invalid request", async () => {
      const challenge = await expect401(undefined, /not a Bearer token/, { authorization: `Basic ${btoa("a:b")}` });
      assert.match(challenge, /error="invalid_request"/);
    });
    await t.step("alg none is refused", async () => {
      const token = `${base64url({ alg: "none", typ: "JWT" })}.${base64url({ sub: "x", exp: NOW / 1000 + 60 })}.`;
      const challenge = await expect401(token, /Unauthorized/);
      assert.match(challenge, /error="invalid_token"/);
    });
    await t.step("another HMAC algorithm is refused", async () => {
      const token = await new SignJWT({}).setProtectedHeader({ alg: "HS384" }).setExpirationTime(NOW / 1000 + 60)
        .sign(key);
      await expect401(token, /algorithm not allowed/);
    });
    await t.step("an RS256 token is refused", async () => {
      const { privateKey } = await generateKeyPair("RS256");
      const token = await new SignJWT({}).setProtectedHeader({ alg: "RS256" }).setExpirationTime(NOW / 1000 + 60)
        .sign(privateKey);
      await expect401(token, /algorithm not allowed/);
    });
    await t.step("a token signed with another secret is refused", async () => {
      await expect401(await mintToken("another-secret-of-at-least-32-bytes!!", { now: NOW }), /bad signature/);
    });
    await t.step("an expired token is refused", async () => {
      await expect401(await mintToken(SECRET, { now: NOW - 7200_000, ttlSeconds: 3600 }), /token expired/);
    });
    await t.step("a token that is not yet valid is refused", async () => {
      await expect401(await mintToken(SECRET, { now: NOW + 3600_000 }), /not yet valid/);
    });
    await t.step("a token without exp is refused", async () => {
      const token = await new SignJWT({ sub: "x" }).setProtectedHeader({ alg: "HS256" }).sign(key);
      await expect401(token, /exp/);
    });
    await t.step("garbage is refused", async () => {
      await expect401("not.a.jwt", /malformed token/);
    });
    await t.step("a valid token opens a session", async () => {
      const response = await handler.fetch(rawRequest(INITIALIZE, { token: await mintToken(SECRET, { now: NOW }) }));
      assert.equal(response.status, 200);
      assert.ok(response.headers.get("mcp-session-id"));
      const message = await readMessage(response);
      assert.equal((message.result as { serverInfo: { name: string } }).serverInfo.name, "science-mcp");
    });
  } finally {
    await handler.close();
    await runtime.close();
  }
});

Deno.test("tokens must name a subject, match the configured audience and issuer, and not live too long", async (t) => {
  const runtime = testRuntime({
    clock: new ManualClock(NOW),
    env: {
      MCP_AUTH_SECRET_KEY: SECRET,
      MCP_AUTH_AUDIENCE: "science-mcp",
      MCP_AUTH_ISSUER: "https://issuer.example",
      MCP_AUTH_MAX_TOKEN_LIFETIME_S: "3600",
    },
  });
  const handler = createHttpHandler(runtime, { reapIntervalMs: 0 });
  const iat = NOW / 1000;
  const sign = (claims: { sub?: string; aud?: string; iss?: string; iat?: number; exp?: number }) => {
    const jwt = new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setExpirationTime(claims.exp ?? iat + 600);
    if (claims.sub !== undefined) jwt.setSubject(claims.sub);
    if (claims.iat !== undefined) jwt.setIssuedAt(claims.iat);
    jwt.setAudience(claims.aud ?? "science-mcp").setIssuer(claims.iss ?? "https://issuer.example");
    return jwt.sign(key);
  };
  const status = async (token: string) => {
    const response = await handler.fetch(rawRequest(INITIALIZE, { token }));
    const body = response.status === 200 ? await readMessage(response) : await response.json();
    return { status: response.status, message: (body.error as { message?: string } | undefined)?.message ?? "" };
  };
  try {
    await t.step("a token without sub (or an empty one) is refused, saying how to mint one", async () => {
      for (const sub of [undefined, "", "  "]) {
        const refused = await status(await sign({ sub, iat }));
        assert.equal(refused.status, 401);
        assert.match(refused.message, /no subject \(sub claim\).*deno task token --sub NAME/);
      }
    });
    await t.step("another audience or issuer is refused, naming the setting", async () => {
      const aud = await status(await sign({ sub: "a", iat, aud: "someone-else" }));
      assert.equal(aud.status, 401);
      assert.match(aud.message, /MCP_AUTH_AUDIENCE/);
      const iss = await status(await sign({ sub: "a", iat, iss: "https://evil.example" }));
      assert.equal(iss.status, 401);
      assert.match(iss.message, /MCP_AUTH_ISSUER/);
    });
    await t.step("a lifetime over MCP_AUTH_MAX_TOKEN_LIFETIME_S is refused: exp − iat, or exp − now", async () => {
      const long = await status(await sign({ sub: "a", iat, exp: iat + 7200 }));
      assert.equal(long.status, 401);
      assert.match(long.message, /lifetime 7200 s exceeds 3600 s \(MCP_AUTH_MAX_TOKEN_LIFETIME_S\)/);
      const noIat = await status(await sign({ sub: "a", exp: iat + 7200 }));
      assert.match(noIat.message, /lifetime 7200 s/);
      const futureIat = await status(await sign({ sub: "a", iat: iat + 5400, exp: iat + 7200 }));
      assert.match(futureIat.message, /lifetime 7200 s/, "an iat in the future does not shorten the lifetime");
    });
    await t.step("a token within every rule opens a session", async () => {
      assert.equal((await status(await sign({ sub: "alice", iat, exp: iat + 3600 }))).status, 200);
    });
  } finally {
    await handler.close();
    await runtime.close();
  }
});

Deno.test("the new auth and session settings are validated at startup, naming the variable", () => {
  for (
    const [name, value] of [
      ["MCP_MAX_SESSIONS_PER_SUBJECT", "0"],
      ["MCP_MAX_SESSIONS_PER_SUBJECT", "many"],
      ["MCP_AUTH_MAX_TOKEN_LIFETIME_S", "10"],
      ["MCP_AUTH_MAX_TOKEN_LIFETIME_S", "1.5"],
    ]
  ) {
    assert.throws(
      () => testConfig({ [name]: value }),
      (e: Error) => e instanceof ConfigError && e.message.startsWith(`Invalid environment variable ${name}=`),
    );
  }
  const http = testConfig({ MCP_AUTH_AUDIENCE: "a", MCP_AUTH_ISSUER: "i" }).http;
  assert.deepEqual(
    [http.authAudience, http.authIssuer, http.maxTokenLifetimeS, http.maxSessionsPerSubject],
    ["a", "i", 604800, 50],
  );
});
