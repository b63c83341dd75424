import assert from "node:assert/strict";
import { jwtVerify } from "jose";
import { parseTtl } from "../../scripts/token.ts";
import { runDeno } from "../e2e/helpers.ts";

const SECRET = "token-test-secret-that-is-long-enough!!";

Deno.test("token --ttl accepts seconds and s/m/h/d suffixes", () => {
  assert.equal(parseTtl("3600"), 3600);
  assert.equal(parseTtl("30m"), 1800);
  assert.equal(parseTtl("12h"), 43200);
  assert.equal(parseTtl("7d"), 604800);
  assert.throws(() => parseTtl("soon"), /--ttl must look like/);
});

Deno.test("deno task token prints an HS256 JWT the server accepts; without a secret it explains why not", async () => {
  const minted = await runDeno(["task", "token", "--sub", "alice", "--ttl", "10m"], { MCP_AUTH_SECRET_KEY: SECRET });
  assert.equal(minted.code, 0, minted.stderr);
  const token = minted.stdout.trim();
  const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode(SECRET));
  assert.equal(protectedHeader.alg, "HS256");
  assert.equal(payload.sub, "alice");
  assert.equal(payload.exp! - payload.iat!, 600);
  const refused = await runDeno(["task", "token"]);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /MCP_AUTH_SECRET_KEY/);
});
