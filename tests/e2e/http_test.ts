/**
 * The HTTP server as a real subprocess (`deno run -P=http main.ts serve --transport http`, listening on a
 * free port), driven by the SDK Client and by raw fetch: auth, Origin, health, DELETE, session expiry and
 * graceful shutdown on SIGTERM.
 */
import assert from "node:assert/strict";
import { ALL_TOOLS } from "../../src/catalog.ts";
import { Client } from "../../src/sdk_client.ts";
import { mintToken } from "../../scripts/token.ts";
import { childEnv, freePort, permissionNet, ROOT, waitForHealth } from "./helpers.ts";
import { StreamableHTTPClientTransport } from "./sdk_client.ts";

const SECRET = "e2e-secret-that-is-long-enough-for-hs256!";

async function startServer() {
  const port = freePort();
  const net = (await permissionNet("http")).filter((h) => !h.endsWith(":3010"));
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-P=http", `--allow-net=${[...net, `127.0.0.1:${port}`].join(",")}`, "main.ts", "serve"],
    cwd: ROOT,
    env: childEnv({
      MCP_TRANSPORT_TYPE: "http",
      MCP_HTTP_PORT: String(port),
      MCP_AUTH_SECRET_KEY: SECRET,
      // An open GET stream no longer keeps a session: the SDK client's session must outlast its pauses.
      MCP_SESSION_IDLE_TIMEOUT_MS: "3000",
    }),
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const base = `http://127.0.0.1:${port}`;
  await waitForHealth(base);
  return { child, base };
}

function post(base: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${base}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
}

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

Deno.test("HTTP server subprocess: SDK client, auth, Origin, sessions and graceful shutdown", async (t) => {
  const { child, base } = await startServer();
  const token = await mintToken(SECRET, { subject: "e2e" });
  const auth = { authorization: `Bearer ${token}` };
  try {
    await t.step("GET /healthz needs no token", async () => {
      const response = await fetch(`${base}/healthz`);
      assert.equal(response.status, 200);
      assert.equal((await response.json()).status, "ok");
    });
    await t.step("the SDK client lists tools and gets tool errors over Streamable HTTP", async () => {
      const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: auth } });
      const client = new Client({ name: "e2e-http", version: "1.0.0" });
      await client.connect(transport);
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((x) => x.name), ALL_TOOLS.map((x) => x.name));
      if (ALL_TOOLS.length > 0) {
        const result = await client.callTool({ name: ALL_TOOLS[0].name, arguments: { bogus_argument: 1 } });
        assert.equal((result.structuredContent as { error: { code: string } }).error.code, "INVALID_INPUT");
      }
      const session = transport.sessionId!;
      await transport.terminateSession();
      await client.close();
      const after = await post(base, { jsonrpc: "2.0", id: 9, method: "ping" }, { ...auth, "mcp-session-id": session });
      assert.equal(after.status, 404, "DELETE ended the session");
      await after.body?.cancel();
    });
    await t.step("no token: 401 with a WWW-Authenticate challenge", async () => {
      const response = await post(base, INITIALIZE);
      assert.equal(response.status, 401);
      assert.equal(response.headers.get("www-authenticate"), 'Bearer realm="science-mcp"');
      await response.body?.cancel();
    });
    await t.step("an expired token: 401 invalid_token", async () => {
      const expired = await mintToken(SECRET, { now: Date.now() - 7200_000 });
      const response = await post(base, INITIALIZE, { authorization: `Bearer ${expired}` });
      assert.equal(response.status, 401);
      assert.match(response.headers.get("www-authenticate") ?? "", /invalid_token.*token expired/);
      await response.body?.cancel();
    });
    await t.step("a foreign Origin: 403", async () => {
      const response = await post(base, INITIALIZE, { ...auth, origin: "http://evil.example.com" });
      assert.equal(response.status, 403);
      await response.body?.cancel();
    });
    await t.step("an idle session expires and then answers 404", async () => {
      const init = await post(base, INITIALIZE, auth);
      const session = init.headers.get("mcp-session-id")!;
      await init.body?.cancel();
      // Idle timeout + one reaper period (3 s each) + margin; a probe the busy server answered before
      // reaping refreshed the session, so it gets another full wait (at most three).
      let status = 0;
      for (let round = 0; round < 3 && status !== 404; round++) {
        await new Promise((r) => setTimeout(r, 6500));
        const response = await post(base, { jsonrpc: "2.0", id: 2, method: "ping" }, {
          ...auth,
          "mcp-session-id": session,
        });
        status = response.status;
        await response.body?.cancel();
      }
      assert.equal(status, 404);
    });
    await t.step("SIGTERM shuts down gracefully with exit code 0", async () => {
      child.kill("SIGTERM");
      const { code, stderr } = await child.output();
      assert.equal(code, 0, new TextDecoder().decode(stderr));
      assert.match(new TextDecoder().decode(stderr), /"msg":"stopped"/);
    });
  } finally {
    try {
      child.kill("SIGKILL");
    } catch {
      // already exited
    }
  }
});

Deno.test("deno serve serve.ts: the same handler, stateless, JWT required", async (t) => {
  const port = freePort();
  const net = (await permissionNet("http")).filter((h) => !h.endsWith(":3010"));
  const serve = (env: Record<string, string>) =>
    new Deno.Command(Deno.execPath(), {
      args: [
        "serve",
        "-P=http",
        `--allow-net=${[...net, `127.0.0.1:${port}`].join(",")}`,
        "--host",
        "127.0.0.1",
        "--port",
        String(port),
        "serve.ts",
      ],
      cwd: ROOT,
      env: childEnv(env),
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    });
  await t.step("MCP_AUTH_MODE=none is refused at startup", async () => {
    const { code, stderr } = await serve({ MCP_AUTH_MODE: "none" }).output();
    assert.notEqual(code, 0);
    assert.match(new TextDecoder().decode(stderr), /MCP_AUTH_MODE=none is not allowed under deno serve/);
  });
  await t.step("a token-bearing client is served statelessly", async () => {
    const child = serve({ MCP_AUTH_SECRET_KEY: SECRET, MCP_SESSION_MODE: "stateless" }).spawn();
    const base = `http://127.0.0.1:${port}`;
    try {
      await waitForHealth(base);
      const token = await mintToken(SECRET);
      const init = await post(base, INITIALIZE, { authorization: `Bearer ${token}` });
      assert.equal(init.status, 200);
      assert.equal(init.headers.get("mcp-session-id"), null);
      await init.body?.cancel();
      const refused = await post(base, INITIALIZE);
      assert.equal(refused.status, 401);
      await refused.body?.cancel();
    } finally {
      child.kill("SIGTERM");
      await child.output();
    }
  });
});
