/**
 * MCP_AUTH_MODE=oauth against a local authorization server: a key pair of our own, its JWKS served on
 * loopback, tokens signed as a real provider would sign them. The server is a protected resource: it
 * publishes RFC 9728 metadata, links it from every challenge, and accepts only tokens of that issuer,
 * for its audience, signed by a key of the JWKS.
 */
import assert from "node:assert/strict";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { ConfigError } from "../../src/config.ts";
import { systemClock } from "../../src/core/clock.ts";
import { assertHttpSecurity } from "../../src/transports/auth.ts";
import { createHttpHandler } from "../../src/transports/http.ts";
import { testConfig, testRuntime } from "../helpers/runtime.ts";
import { INITIALIZE, rawRequest, readMessage, SECRET } from "./http_helpers.ts";

const ISSUER = "https://auth.example.test/";
const RESOURCE = "https://mcp.example.test/mcp";
const METADATA = "https://mcp.example.test/.well-known/oauth-protected-resource/mcp";

interface Issuer {
  jwksUrl: string;
  sign(claims: Record<string, unknown>, options?: { kid?: string; alg?: string; exp?: string }): Promise<string>;
  rsa: JWK;
  requests: number;
  close(): Promise<void>;
}

/** A local authorization server: an RS256 and an ES256 key, the JWKS served on 127.0.0.1. */
async function localIssuer(): Promise<Issuer> {
  const rsa = await generateKeyPair("RS256");
  const ec = await generateKeyPair("ES256");
  const rsaJwk = { ...await exportJWK(rsa.publicKey), kid: "rsa-1", alg: "RS256", use: "sig" };
  const ecJwk = { ...await exportJWK(ec.publicKey), kid: "ec-1", alg: "ES256", use: "sig" };
  const keys: JWK[] = [rsaJwk, ecJwk];
  const state = { requests: 0 };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, () => {
    state.requests++;
    return Response.json({ keys });
  });
  return {
    jwksUrl: `http://127.0.0.1:${server.addr.port}/jwks.json`,
    rsa: rsaJwk,
    get requests() {
      return state.requests;
    },
    async sign(claims, options = {}) {
      const alg = options.alg ?? "RS256";
      const kid = options.kid ?? (alg === "ES256" ? "ec-1" : "rsa-1");
      return await new SignJWT(claims)
        .setProtectedHeader({ alg, kid, typ: "at+jwt" })
        .setIssuedAt()
        .setExpirationTime(options.exp ?? "10m")
        .sign(alg === "ES256" ? ec.privateKey : rsa.privateKey);
    },
    close: () => server.shutdown(),
  };
}

function oauthEnv(issuer: Issuer, extra: Record<string, string> = {}): Record<string, string> {
  return {
    MCP_AUTH_MODE: "oauth",
    MCP_AUTH_ISSUER: ISSUER,
    MCP_AUTH_AUDIENCE: RESOURCE,
    MCP_AUTH_JWKS_URL: issuer.jwksUrl,
    ...extra,
  };
}

const GOOD = { iss: ISSUER, aud: RESOURCE, sub: "user-1", client_id: "claude" };

Deno.test("oauth mode: tokens of the external authorization server open sessions; others get 401 with the metadata link", async (t) => {
  const issuer = await localIssuer();
  const handler = createHttpHandler(testRuntime({ clock: systemClock, env: oauthEnv(issuer) }), { reapIntervalMs: 0 });
  const initialize = (token?: string) => handler.fetch(rawRequest(INITIALIZE, { token }));
  const expect401 = async (token: string | undefined, reason: RegExp) => {
    const response = await initialize(token);
    assert.equal(response.status, 401);
    const challenge = response.headers.get("www-authenticate") ?? "";
    assert.match(challenge, new RegExp(`resource_metadata="${METADATA}"`));
    assert.match((await response.json()).error.message, reason);
  };
  try {
    await t.step("an RS256 token for this audience opens a session bound to its sub", async () => {
      const response = await initialize(await issuer.sign(GOOD));
      assert.equal(response.status, 200);
      assert.ok(response.headers.get("mcp-session-id"));
      const message = await readMessage(response);
      assert.ok((message.result as Record<string, unknown>).serverInfo);
    });
    await t.step("an ES256 token works too", async () => {
      const response = await initialize(await issuer.sign(GOOD, { alg: "ES256" }));
      assert.equal(response.status, 200);
      await response.body?.cancel();
    });
    await t.step("no token: 401 whose challenge links the protected-resource metadata", async () => {
      await expect401(undefined, /missing bearer token/);
    });
    await t.step("a token for another audience is refused", async () => {
      await expect401(await issuer.sign({ ...GOOD, aud: "https://other.example.test/mcp" }), /audience/);
    });
    await t.step("a token of another issuer is refused", async () => {
      await expect401(await issuer.sign({ ...GOOD, iss: "https://evil.example.test/" }), /issuer/);
    });
    await t.step("a forged token (signed by a key the JWKS does not hold) is refused", async () => {
      const forger = await generateKeyPair("RS256");
      const forged = await new SignJWT(GOOD).setProtectedHeader({ alg: "RS256", kid: "rsa-1" })
        .setIssuedAt().setExpirationTime("10m").sign(forger.privateKey);
      await expect401(forged, /bad signature/);
    });
    await t.step("an HS256 token keyed with the public key (algorithm confusion) is refused", async () => {
      const confused = await new SignJWT(GOOD).setProtectedHeader({ alg: "HS256", kid: "rsa-1" })
        .setIssuedAt().setExpirationTime("10m").sign(new TextEncoder().encode(JSON.stringify(issuer.rsa)));
      await expect401(confused, /algorithm not allowed/);
    });
    await t.step("an expired token and a token without sub are refused", async () => {
      await expect401(await issuer.sign(GOOD, { exp: "-1m" }), /expired/);
      await expect401(await issuer.sign({ ...GOOD, sub: undefined }), /subject/);
    });
    await t.step("the JWKS is read once and cached, not once per request", () => {
      assert.equal(issuer.requests, 1);
    });
  } finally {
    await handler.close();
    await issuer.close();
  }
});

Deno.test("oauth mode publishes RFC 9728 metadata at both well-known paths", async () => {
  const issuer = await localIssuer();
  const handler = createHttpHandler(
    testRuntime({ clock: systemClock, env: oauthEnv(issuer, { MCP_AUTH_SCOPES: "mcp:tools mcp:read" }) }),
    { reapIntervalMs: 0 },
  );
  try {
    for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]) {
      const response = await handler.fetch(rawRequest(undefined, { method: "GET", path }));
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get("access-control-allow-origin"), "*");
      assert.deepEqual(await response.json(), {
        resource: RESOURCE,
        authorization_servers: [ISSUER],
        bearer_methods_supported: ["header"],
        scopes_supported: ["mcp:tools", "mcp:read"],
        resource_name: "science-mcp",
      });
    }
  } finally {
    await handler.close();
    await issuer.close();
  }
});

Deno.test("oauth mode: a valid token without the required scopes gets 403 insufficient_scope", async () => {
  const issuer = await localIssuer();
  const handler = createHttpHandler(
    testRuntime({ clock: systemClock, env: oauthEnv(issuer, { MCP_AUTH_SCOPES: "mcp:tools" }) }),
    { reapIntervalMs: 0 },
  );
  try {
    const refused = await handler.fetch(rawRequest(INITIALIZE, { token: await issuer.sign(GOOD) }));
    assert.equal(refused.status, 403);
    const challenge = refused.headers.get("www-authenticate") ?? "";
    assert.match(challenge, /error="insufficient_scope"/);
    assert.match(challenge, /scope="mcp:tools"/);
    await refused.body?.cancel();
    for (const claims of [{ scope: "openid mcp:tools" }, { scp: ["mcp:tools"] }]) {
      const ok = await handler.fetch(rawRequest(INITIALIZE, { token: await issuer.sign({ ...GOOD, ...claims }) }));
      assert.equal(ok.status, 200, JSON.stringify(claims));
      await ok.body?.cancel();
    }
  } finally {
    await handler.close();
    await issuer.close();
  }
});

Deno.test("a 401 names the known scopes in WWW-Authenticate (MCP 2025-11-25), and none when none are set", async () => {
  const issuer = await localIssuer();
  const scoped = createHttpHandler(
    testRuntime({ clock: systemClock, env: oauthEnv(issuer, { MCP_AUTH_SCOPES: "mcp:tools mcp:read" }) }),
    { reapIntervalMs: 0 },
  );
  const plain = createHttpHandler(testRuntime({ clock: systemClock, env: oauthEnv(issuer) }), { reapIntervalMs: 0 });
  try {
    for (const token of [undefined, "not.a.token", await issuer.sign(GOOD, { exp: "-1m" })]) {
      const refused = await scoped.fetch(rawRequest(INITIALIZE, { token }));
      assert.equal(refused.status, 401);
      const challenge = refused.headers.get("www-authenticate") ?? "";
      assert.match(challenge, /scope="mcp:tools mcp:read"/, challenge);
      assert.match(challenge, /resource_metadata="/, challenge);
      await refused.body?.cancel();
    }
    const bare = await plain.fetch(rawRequest(INITIALIZE, {}));
    assert.equal(bare.status, 401);
    assert.doesNotMatch(bare.headers.get("www-authenticate") ?? "", /scope=/);
    await bare.body?.cancel();
  } finally {
    await scoped.close();
    await plain.close();
    await issuer.close();
  }
});

Deno.test("oauth mode: unreachable keys answer 503, not 401 (the client's token is not at fault)", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const closedPort = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const env = {
    MCP_AUTH_MODE: "oauth",
    MCP_AUTH_ISSUER: ISSUER,
    MCP_AUTH_AUDIENCE: RESOURCE,
    MCP_AUTH_JWKS_URL: `http://127.0.0.1:${closedPort}/jwks.json`,
  };
  const handler = createHttpHandler(testRuntime({ clock: systemClock, env }), { reapIntervalMs: 0 });
  const issuer = await localIssuer();
  try {
    const response = await handler.fetch(rawRequest(INITIALIZE, { token: await issuer.sign(GOOD) }));
    assert.equal(response.status, 503);
    assert.match((await response.json()).error.message, /MCP_AUTH_JWKS_URL/);
  } finally {
    await handler.close();
    await issuer.close();
  }
});

Deno.test("oauth mode without its settings stops start-up naming the missing one", () => {
  const base = { MCP_AUTH_MODE: "oauth", MCP_AUTH_SECRET_KEY: SECRET };
  const cases: [Record<string, string>, RegExp][] = [
    [{}, /MCP_AUTH_ISSUER/],
    [{ MCP_AUTH_ISSUER: ISSUER }, /MCP_AUTH_JWKS_URL/],
    [{ MCP_AUTH_ISSUER: ISSUER, MCP_AUTH_JWKS_URL: "https://auth.example.test/jwks" }, /MCP_AUTH_AUDIENCE/],
    [
      { MCP_AUTH_ISSUER: ISSUER, MCP_AUTH_JWKS_URL: "https://auth.example.test/jwks", MCP_AUTH_AUDIENCE: "api://x" },
      /MCP_AUTH_RESOURCE_URL/,
    ],
  ];
  for (const [env, missing] of cases) {
    assert.throws(
      () => assertHttpSecurity(testConfig({ ...base, ...env }).http),
      (e: Error) => e instanceof ConfigError && missing.test(e.message) && !e.message.includes("\n"),
    );
  }
  assertHttpSecurity(
    testConfig({
      ...base,
      MCP_AUTH_ISSUER: ISSUER,
      MCP_AUTH_JWKS_URL: "https://auth.example.test/jwks",
      MCP_AUTH_AUDIENCE: "api://x",
      MCP_AUTH_RESOURCE_URL: RESOURCE,
    }).http,
  );
});

Deno.test("jwt mode serves no protected-resource metadata", async () => {
  const handler = createHttpHandler(testRuntime({ env: { MCP_AUTH_SECRET_KEY: SECRET } }), { reapIntervalMs: 0 });
  try {
    const response = await handler.fetch(
      rawRequest(undefined, { method: "GET", path: "/.well-known/oauth-protected-resource" }),
    );
    assert.equal(response.status, 404);
    await response.body?.cancel();
  } finally {
    await handler.close();
  }
});

Deno.test("oauth mode: a key set over 100 keys or 256 KB is refused with 503 naming the cap; 100 keys are read", async (t) => {
  const issuer = await localIssuer();
  const filler = (n: number) => Array.from({ length: n }, (_, i) => ({ ...issuer.rsa, kid: `filler-${i}` }));
  const served = { keys: [] as JWK[] };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, () => Response.json(served));
  const env = { ...oauthEnv(issuer), MCP_AUTH_JWKS_URL: `http://127.0.0.1:${server.addr.port}/jwks.json` };
  const call = async (keys: JWK[]) => {
    served.keys = keys;
    const handler = createHttpHandler(testRuntime({ clock: systemClock, env }), { reapIntervalMs: 0 });
    try {
      const response = await handler.fetch(rawRequest(INITIALIZE, { token: await issuer.sign(GOOD) }));
      return { status: response.status, text: await response.text() };
    } finally {
      await handler.close();
    }
  };
  try {
    await t.step("101 keys (about 70 KB): 503, the count named", async () => {
      const { status, text } = await call([issuer.rsa, ...filler(100)]);
      assert.equal(status, 503);
      assert.match(text, /MCP_AUTH_JWKS_URL\) were refused: the key set holds 101 keys \(at most 100\)/);
    });
    await t.step("300,000 keys: 503 at the size cap, without reading them all", async () => {
      const { status, text } = await call(filler(300_000));
      assert.equal(status, 503);
      assert.match(text, /the key set is (larger than|\d+ bytes \()at most 256 KB/);
    });
    await t.step("100 keys, the signing key among them: the token is accepted", async () => {
      const { status } = await call([...filler(99), issuer.rsa]);
      assert.equal(status, 200);
    });
  } finally {
    await server.shutdown();
    await issuer.close();
  }
});
