import assert from "node:assert/strict";
import { createHttpHandler } from "../../src/transports/http.ts";
import { testRuntime } from "../helpers/runtime.ts";
import { INITIALIZE, rawRequest } from "./http_helpers.ts";

function handlerWith(env: Record<string, string>) {
  const runtime = testRuntime({ env: { MCP_AUTH_MODE: "none", ...env } });
  return { runtime, handler: createHttpHandler(runtime, { reapIntervalMs: 0 }) };
}

Deno.test("Host and Origin validation blocks DNS rebinding with 403", async (t) => {
  const { runtime, handler } = handlerWith({ MCP_ALLOWED_ORIGINS: "https://mcp.example.org" });
  const status = async (headers: Record<string, string>) => {
    const response = await handler.fetch(rawRequest(INITIALIZE, { headers }));
    await response.body?.cancel();
    return response;
  };
  try {
    await t.step("a foreign Host is refused before anything else", async () => {
      const response = await handler.fetch(rawRequest(INITIALIZE, { headers: { host: "evil.example.com" } }));
      assert.equal(response.status, 403);
      assert.match((await response.json()).error.message, /Host "evil.example.com" is not allowed/);
    });
    await t.step("a foreign Origin is refused even with a loopback Host", async () => {
      const response = await status({ host: "127.0.0.1:3010", origin: "http://evil.example.com" });
      assert.equal(response.status, 403);
    });
    await t.step("an Origin that only shares a prefix with an allowed one is refused", async () => {
      assert.equal((await status({ origin: "https://mcp.example.org.evil.com" })).status, 403);
      assert.equal((await status({ origin: "http://mcp.example.org" })).status, 403);
    });
    await t.step("loopback hosts and origins are accepted on any port", async () => {
      for (const host of ["127.0.0.1:3010", "localhost:9999", "[::1]:3010"]) {
        assert.equal((await status({ host, origin: `http://${host}` })).status, 200, host);
      }
    });
    await t.step("requests without Origin (non-browser clients) are accepted", async () => {
      assert.equal((await status({ host: "localhost:3010" })).status, 200);
    });
    await t.step("a listed origin is accepted, its host too, and gets CORS headers", async () => {
      const response = await status({ host: "mcp.example.org", origin: "https://mcp.example.org" });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("access-control-allow-origin"), "https://mcp.example.org");
      assert.match(response.headers.get("access-control-expose-headers") ?? "", /mcp-session-id/);
    });
    await t.step("a CORS preflight from a listed origin is answered without authentication", async () => {
      const response = await handler.fetch(
        rawRequest(undefined, { method: "OPTIONS", headers: { origin: "https://mcp.example.org" } }),
      );
      assert.equal(response.status, 204);
      assert.match(response.headers.get("access-control-allow-methods") ?? "", /POST/);
      assert.match(response.headers.get("access-control-allow-headers") ?? "", /authorization/);
    });
    await t.step("a preflight from a foreign origin is refused", async () => {
      const response = await handler.fetch(
        rawRequest(undefined, { method: "OPTIONS", headers: { origin: "https://evil.example.com" } }),
      );
      assert.equal(response.status, 403);
    });
  } finally {
    await handler.close();
    await runtime.close();
  }
});

Deno.test("the bind address is an accepted Host", async () => {
  const { runtime, handler } = handlerWith({ MCP_HTTP_HOST: "localhost" });
  try {
    const ok = await handler.fetch(rawRequest(INITIALIZE, { headers: { host: "localhost:3010" } }));
    await ok.body?.cancel();
    assert.equal(ok.status, 200);
    const refused = await handler.fetch(rawRequest(INITIALIZE, { headers: { host: "192.168.1.5:3010" } }));
    assert.equal(refused.status, 403);
  } finally {
    await handler.close();
    await runtime.close();
  }
});

Deno.test("healthz answers without authentication and other paths are 404", async () => {
  const runtime = testRuntime({ env: { MCP_AUTH_SECRET_KEY: "x".repeat(40) } });
  const handler = createHttpHandler(runtime, { reapIntervalMs: 0 });
  try {
    const health = await handler.fetch(new Request("http://127.0.0.1:3010/healthz"));
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { status: "ok", name: "science-mcp", version: "0.1.0" });
    const missing = await handler.fetch(new Request("http://127.0.0.1:3010/other"));
    assert.equal(missing.status, 404);
    await missing.body?.cancel();
    const put = await handler.fetch(rawRequest(INITIALIZE, { method: "PUT" }));
    assert.equal(put.status, 405);
    assert.equal(put.headers.get("allow"), "GET, POST, DELETE");
    await put.body?.cancel();
  } finally {
    await handler.close();
    await runtime.close();
  }
});
