import assert from "node:assert/strict";
import { z } from "zod";
import { systemClock } from "../../src/core/clock.ts";
import { ToolError } from "../../src/core/errors.ts";
import { openSessionLog } from "../../src/core/session_log.ts";
import { defineTool } from "../../src/tools/tool_def.ts";
import { type JSONRPCMessage } from "../../src/sdk.ts";
import { Client, InMemoryTransport } from "../../src/sdk_client.ts";
import { createMcpServer, type ServerOptions } from "../../src/server.ts";
import type { Runtime } from "../../src/runtime.ts";
import { testRuntime } from "../helpers/runtime.ts";

const chatty = defineTool({
  name: "chatty_test",
  title: "Chatty",
  toolset: "pdf",
  description: 'Logs at info and warning, then echoes. Example: {"text":"hi"}',
  input: z.object({ text: z.string().describe("Text to echo") }),
  output: z.object({ echoed: z.string() }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  examples: [{ text: "hi" }],
  async run(args, ctx) {
    ctx.log.info("working on it", { text: args.text });
    ctx.log.warn("something odd", { text: args.text });
    await ctx.progress(1, 2, "half way");
    await ctx.progress(2, 2, "done");
    if (args.text === "fail") throw new ToolError("NOT_AVAILABLE", "fail is not available", "Use another word.");
    return { echoed: args.text };
  },
  render: (r) => r.echoed,
});

async function connect(runtime: Runtime, options: ServerOptions) {
  const server = createMcpServer(runtime, { ...options, extension: { tools: [chatty] } });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "log-test", version: "1" });
  const messages: { level: string; data: Record<string, unknown> }[] = [];
  client.setNotificationHandler("notifications/message", (n) => {
    messages.push(n.params as { level: string; data: Record<string, unknown> });
  });
  // Everything the server sends, as the wire would carry it.
  const sent: JSONRPCMessage[] = [];
  const send = serverSide.send.bind(serverSide);
  serverSide.send = (message, options) => {
    sent.push(message);
    return send(message, options);
  };
  await server.connect(serverSide);
  await client.connect(clientSide);
  return { client, messages, sent, close: () => client.close() };
}

/** Notifications are delivered asynchronously after the response; give them a turn. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

Deno.test("log records reach MCP clients as notifications/message, honouring logging/setLevel", async (t) => {
  const runtime = testRuntime({ clock: systemClock });
  const a = await connect(runtime, { sessionId: "session-a" });
  const b = await connect(runtime, { sessionId: "session-b" });
  try {
    await t.step("the records of a tool call reach the caller's session once it asked for a level", async () => {
      await a.client.setLoggingLevel("info");
      await b.client.setLoggingLevel("debug");
      await a.client.callTool({ name: "chatty_test", arguments: { text: "one" } });
      await settle();
      const texts = a.messages.map((m) => m.data.msg);
      assert.ok(texts.includes("working on it"), JSON.stringify(texts));
      assert.ok(texts.includes("something odd"));
      assert.ok(a.messages.every((m) => m.data.session === "session-a"));
    });
    await t.step("another session never sees them", () => {
      assert.deepEqual(b.messages.filter((m) => m.data.session === "session-a"), []);
    });
    await t.step("after setLevel warning, info records are no longer sent", async () => {
      await a.client.setLoggingLevel("warning");
      a.messages.length = 0;
      await a.client.callTool({ name: "chatty_test", arguments: { text: "two" } });
      await settle();
      assert.ok(a.messages.length > 0);
      assert.ok(a.messages.every((m) => m.level !== "info" && m.level !== "debug"), JSON.stringify(a.messages));
    });
  } finally {
    await a.close();
    await b.close();
    await runtime.close();
  }
});

Deno.test("a client that never sent logging/setLevel gets no log notifications, whatever MCP_LOG_LEVEL says", async () => {
  const runtime = testRuntime({ clock: systemClock, env: { MCP_LOG_LEVEL: "debug" } });
  const a = await connect(runtime, { sessionId: "s" });
  try {
    await a.client.callTool({ name: "chatty_test", arguments: { text: "x" } });
    await a.client.callTool({ name: "chatty_test", arguments: { text: "fail" } });
    await settle();
    assert.equal(a.messages.length, 0, JSON.stringify(a.messages));
    assert.deepEqual(a.sent.filter((m) => "method" in m && m.method === "notifications/message"), []);
    await a.client.setLoggingLevel("warning");
    await a.client.callTool({ name: "chatty_test", arguments: { text: "y" } });
    await settle();
    assert.deepEqual(a.messages.map((m) => m.level), ["warning"]);
  } finally {
    await a.close();
    await runtime.close();
  }
});

Deno.test("progress notifications are sent only for a call that carries a progressToken", async () => {
  const runtime = testRuntime({ clock: systemClock });
  const a = await connect(runtime, { sessionId: "s" });
  const progressSent = () =>
    a.sent.filter((m) => "method" in m && m.method === "notifications/progress").map((m) =>
      "params" in m ? m.params?.progress : undefined
    );
  try {
    await a.client.callTool({ name: "chatty_test", arguments: { text: "no token" } });
    await settle();
    assert.deepEqual(progressSent(), [], "no progressToken, no progress notifications");
    const seen: number[] = [];
    // The SDK client sends a progressToken when onprogress is given, and routes the notifications there.
    await a.client.callTool({ name: "chatty_test", arguments: { text: "token" } }, {
      onprogress: (p) => void seen.push(p.progress),
    });
    await settle();
    assert.deepEqual(progressSent(), [1, 2]);
    assert.deepEqual(seen, [1, 2]);
  } finally {
    await a.close();
    await runtime.close();
  }
});

Deno.test("a session log file records requests, results, errors and warnings, redacted", async () => {
  const dir = await Deno.makeTempDir();
  const runtime = testRuntime({ clock: systemClock });
  const sessionLog = openSessionLog(dir, Date.UTC(2026, 0, 31, 23, 59, 58), { session: "s1" });
  const a = await connect(runtime, { sessionId: "s1", sessionLog });
  try {
    await a.client.callTool({ name: "chatty_test", arguments: { text: "see https://x.org/?api_key=SECRET123&q=1" } });
    await a.client.callTool({ name: "chatty_test", arguments: { text: "fail" } });
    await a.close();
    assert.equal(sessionLog.path, `${dir}/2026-01-31_23-59-58.log`);
    const text = await Deno.readTextFile(sessionLog.path);
    assert.doesNotMatch(text, /SECRET123/);
    const lines = text.trim().split("\n").map((l) => JSON.parse(l));
    const requests = lines.filter((l) => l.msg === "request");
    assert.deepEqual(requests.map((l) => l.tool), ["chatty_test", "chatty_test"]);
    assert.match(requests[0].arguments.text, /api_key=REDACTED/);
    const result = lines.find((l) => l.msg === "result");
    assert.match(result.result.echoed, /api_key=REDACTED/);
    const error = lines.find((l) => l.msg === "error");
    assert.equal(error.error.code, "NOT_AVAILABLE");
    assert.ok(lines.some((l) => l.msg === "something odd" && l.level === "warning"));
    assert.ok(!lines.some((l) => l.msg === "working on it"), "info records of the runtime stay on stderr");
  } finally {
    await runtime.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("logged tool arguments are cut to a few hundred characters", async () => {
  const dir = await Deno.makeTempDir();
  const runtime = testRuntime({ clock: systemClock });
  const sessionLog = openSessionLog(dir, Date.UTC(2026, 0, 31, 23, 59, 58), { session: "s2" });
  const a = await connect(runtime, { sessionId: "s2", sessionLog });
  try {
    await a.client.callTool({ name: "chatty_test", arguments: { text: "q".repeat(50_000) } });
    await a.close();
    const lines = (await Deno.readTextFile(sessionLog.path!)).trim().split("\n").map((l) => JSON.parse(l));
    const request = lines.find((l) => l.msg === "request");
    assert.match(request.arguments.text, /^q{300}…\(\+49700 chars\)$/);
  } finally {
    await runtime.close();
    await Deno.remove(dir, { recursive: true });
  }
});
