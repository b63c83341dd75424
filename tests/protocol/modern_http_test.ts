/**
 * The 2026-07-28 leg of the HTTP endpoint, driven with raw requests through `handler.fetch`: discovery
 * lists both revisions, results carry `resultType` and cache fields, the envelope and the standard
 * headers are validated with the revision's error codes, log notifications need a requested level, and
 * 2025 sessions keep working beside it on the same endpoint.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { ALL_TOOLS } from "../../src/catalog.ts";
import { defineTool } from "../../src/tools/tool_def.ts";
import { createHttpHandler } from "../../src/transports/http.ts";
import { testRuntime } from "../helpers/runtime.ts";
import { INITIALIZE, openSession, rawRequest, readMessage } from "../transports/http_helpers.ts";
import { MODERN, modernRequest, readAll, readFinal } from "./modern_helpers.ts";

const loud = defineTool({
  name: "loud_tool",
  title: "Logs at two levels",
  toolset: "pdf",
  description: "Test tool: logs one debug and one warning record.",
  input: z.object({}),
  output: z.object({ ok: z.boolean() }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  examples: [{}],
  run(_args, ctx) {
    ctx.log.debug("quiet detail");
    ctx.log.warn("something to see");
    return Promise.resolve({ ok: true });
  },
  render: () => "ok",
});

function setup() {
  const runtime = testRuntime({ env: { MCP_AUTH_MODE: "none", MCP_LOG_LEVEL: "debug" } });
  const handler = createHttpHandler(runtime, { reapIntervalMs: 0, extension: { tools: [loud] } });
  return {
    handler,
    close: async () => {
      await handler.close();
      await runtime.close();
    },
  };
}

type Rpc = {
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: Record<string, unknown> };
};

Deno.test("2026-07-28 over HTTP: discovery, results and cache fields", async (t) => {
  const { handler, close } = setup();
  try {
    await t.step("server/discover lists 2026-07-28 and 2025-11-25, with serverInfo and cache fields", async () => {
      const response = await handler.fetch(modernRequest("server/discover"));
      assert.equal(response.status, 200);
      const { result } = await readFinal(response) as Rpc;
      assert.deepEqual(result?.supportedVersions, ["2026-07-28", "2025-11-25"]);
      assert.equal(result?.resultType, "complete");
      assert.equal(result?.ttlMs, 3_600_000);
      assert.equal(result?.cacheScope, "public");
      assert.ok((result?.capabilities as Record<string, unknown>).tools);
      const meta = result?._meta as Record<string, { name: string }>;
      assert.equal(meta["io.modelcontextprotocol/serverInfo"].name, "science-mcp");
    });
    await t.step("tools/list is complete, cacheable and in catalogue order", async () => {
      const { result } = await readFinal(await handler.fetch(modernRequest("tools/list"))) as Rpc;
      assert.equal(result?.resultType, "complete");
      assert.equal(result?.ttlMs, 3_600_000);
      assert.equal(result?.cacheScope, "public");
      const names = (result?.tools as { name: string }[]).map((x) => x.name);
      assert.deepEqual(names, [...ALL_TOOLS.map((x) => x.name), "loud_tool"]);
    });
    await t.step("resources/list and resources/read are private and short-lived", async () => {
      const { result: list } = await readFinal(await handler.fetch(modernRequest("resources/list"))) as Rpc;
      assert.equal(list?.ttlMs, 60_000);
      assert.equal(list?.cacheScope, "private");
      const uri = "pubmed-connect://info";
      const { result: read } = await readFinal(await handler.fetch(modernRequest("resources/read", { uri }))) as Rpc;
      assert.equal(read?.resultType, "complete");
      assert.equal(read?.cacheScope, "private");
      assert.equal((read?.contents as { uri: string }[])[0].uri, uri);
    });
    await t.step("tools/call answers with resultType complete and the tool's structured content", async () => {
      const response = await handler.fetch(modernRequest("tools/call", { name: "loud_tool", arguments: {} }));
      const { result } = await readFinal(response) as Rpc;
      assert.equal(result?.resultType, "complete");
      assert.deepEqual(result?.structuredContent, { ok: true });
    });
    await t.step("a missing resource is -32602 (the 2026 code)", async () => {
      const uri = "science://no-such-resource";
      const { error } = await readFinal(await handler.fetch(modernRequest("resources/read", { uri }))) as Rpc;
      assert.equal(error?.code, -32602);
    });
  } finally {
    await close();
  }
});

Deno.test("2026-07-28 over HTTP: envelope and header validation", async (t) => {
  const { handler, close } = setup();
  const refused = async (request: Request, status: number, code: number) => {
    const response = await handler.fetch(request);
    assert.equal(response.status, status);
    const { error } = await readFinal(response) as Rpc;
    assert.equal(error?.code, code, error?.message);
    return error!;
  };
  try {
    await t.step("no MCP-Protocol-Version header: 400 with -32020", async () => {
      await refused(modernRequest("tools/list", {}, { headers: { "mcp-protocol-version": undefined } }), 400, -32020);
    });
    await t.step("a header that disagrees with _meta: 400 with -32020", async () => {
      await refused(modernRequest("tools/list", {}, { headers: { "mcp-method": "prompts/list" } }), 400, -32020);
      await refused(
        modernRequest("tools/call", { name: "loud_tool", arguments: {} }, { headers: { "mcp-name": "other_tool" } }),
        400,
        -32020,
      );
    });
    await t.step("tools/call without Mcp-Name: 400 with -32020", async () => {
      const request = modernRequest("tools/call", { name: "loud_tool", arguments: {} }, {
        headers: { "mcp-name": undefined },
      });
      await refused(request, 400, -32020);
    });
    await t.step("no clientCapabilities in _meta: 400 with -32602", async () => {
      const request = modernRequest("tools/list", {}, {
        meta: { "io.modelcontextprotocol/clientCapabilities": undefined },
      });
      await refused(request, 400, -32602);
    });
    await t.step("an unsupported revision: 400 with -32022 listing both served revisions", async () => {
      const request = modernRequest("tools/list", {}, {
        meta: { "io.modelcontextprotocol/protocolVersion": "2099-01-01" },
        headers: { "mcp-protocol-version": "2099-01-01" },
      });
      const error = await refused(request, 400, -32022);
      assert.deepEqual(error.data?.supported, ["2026-07-28", "2025-11-25"]);
    });
    await t.step("an unknown method: 404 with -32601", async () => {
      await refused(modernRequest("tools/frobnicate"), 404, -32601);
    });
    await t.step("methods the revision removed (ping, logging/setLevel) are unknown", async () => {
      await refused(modernRequest("ping"), 404, -32601);
      await refused(modernRequest("logging/setLevel", { level: "debug" }), 404, -32601);
    });
  } finally {
    await close();
  }
});

Deno.test("2026-07-28 over HTTP: log notifications only for a request that names a level", async (t) => {
  const { handler, close } = setup();
  const call = async (meta: Record<string, unknown> = {}) => {
    const response = await handler.fetch(modernRequest("tools/call", { name: "loud_tool", arguments: {} }, { meta }));
    const messages = await readAll(response);
    const logs = messages.filter((m) => m.method === "notifications/message");
    return logs.map((m) => (m.params as { level: string }).level);
  };
  try {
    await t.step("without io.modelcontextprotocol/logLevel: none, although MCP_LOG_LEVEL is debug", async () => {
      assert.deepEqual(await call(), []);
    });
    await t.step("logLevel warning: the warning only, on the call's own stream", async () => {
      const levels = await call({ "io.modelcontextprotocol/logLevel": "warning" });
      assert.ok(levels.includes("warning"), `levels: ${levels}`);
      assert.ok(!levels.includes("debug"), `levels: ${levels}`);
    });
    await t.step("logLevel debug: both records", async () => {
      const levels = await call({ "io.modelcontextprotocol/logLevel": "debug" });
      assert.ok(levels.includes("debug") && levels.includes("warning"), `levels: ${levels}`);
    });
  } finally {
    await close();
  }
});

Deno.test("one endpoint serves both eras: a 2025 session works beside 2026 requests", async () => {
  const { handler, close } = setup();
  try {
    const session = await openSession(handler);
    const modern = await readFinal(await handler.fetch(modernRequest("tools/list"))) as Rpc;
    assert.equal(modern.result?.resultType, "complete");
    const response = await handler.fetch(rawRequest({ jsonrpc: "2.0", id: 2, method: "tools/list" }, { session }));
    assert.equal(response.status, 200);
    const legacy = await readMessage(response) as Rpc;
    assert.ok(Array.isArray(legacy.result?.tools));
    assert.equal(legacy.result?.resultType, undefined, "2025 results carry no 2026 fields");
    assert.equal(legacy.result?.ttlMs, undefined);
    assert.equal(handler.sessions, 1, "the modern requests opened no session");
    assert.equal(MODERN, "2026-07-28");
  } finally {
    await close();
  }
});

Deno.test("MCP_SESSION_MODE=stateless (deno serve, Deploy): both eras are served without sessions", async () => {
  const runtime = testRuntime({ env: { MCP_AUTH_MODE: "none", MCP_SESSION_MODE: "stateless" } });
  const handler = createHttpHandler(runtime, { reapIntervalMs: 0 });
  try {
    const modern = await readFinal(await handler.fetch(modernRequest("tools/list"))) as Rpc;
    assert.equal(modern.result?.resultType, "complete");
    const response = await handler.fetch(rawRequest(INITIALIZE));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("mcp-session-id"), null);
    assert.ok((await readMessage(response) as Rpc).result?.protocolVersion);
    const legacy = await readMessage(await handler.fetch(rawRequest({ jsonrpc: "2.0", id: 2, method: "tools/list" })));
    assert.ok(Array.isArray((legacy as Rpc).result?.tools));
    assert.equal(handler.sessions, 0);
  } finally {
    await handler.close();
    await runtime.close();
  }
});
