import assert from "node:assert/strict";
import { decodeJwt } from "jose";
import { runDeno } from "../e2e/helpers.ts";

const SECRET = "token-test-secret-that-is-long-enough!!";

Deno.test("deno task token requires --sub: sessions and their quota belong to a subject", async () => {
  for (const args of [[], ["--ttl", "10m"], ["--sub"], ["--sub", "--ttl", "10m"]]) {
    const refused = await runDeno(["task", "token", ...args], { MCP_AUTH_SECRET_KEY: SECRET });
    assert.equal(refused.code, 1, args.join(" "));
    assert.match(refused.stderr, /--sub NAME is required/);
    assert.equal(refused.stdout, "");
  }
});

Deno.test("deno task token adds the configured aud/iss and refuses a --ttl over the server's maximum", async () => {
  const env = {
    MCP_AUTH_SECRET_KEY: SECRET,
    MCP_AUTH_AUDIENCE: "science-mcp",
    MCP_AUTH_ISSUER: "https://issuer.example",
    MCP_AUTH_MAX_TOKEN_LIFETIME_S: "86400",
  };
  const minted = await runDeno(["task", "token", "--sub", "alice", "--ttl", "12h"], env);
  assert.equal(minted.code, 0, minted.stderr);
  const claims = decodeJwt(minted.stdout.trim());
  assert.deepEqual([claims.sub, claims.aud, claims.iss, claims.exp! - claims.iat!], [
    "alice",
    "science-mcp",
    "https://issuer.example",
    43200,
  ]);
  const tooLong = await runDeno(["task", "token", "--sub", "alice", "--ttl", "2d"], env);
  assert.equal(tooLong.code, 1);
  assert.match(
    tooLong.stderr,
    /--ttl 172800 s is longer than the server accepts \(MCP_AUTH_MAX_TOKEN_LIFETIME_S=86400\)/,
  );
});
