/**
 * The stdio server as a real subprocess (`deno run -P=stdio main.ts serve`), driven by the SDK Client:
 * the permission set is enough to start and serve, stdout carries only JSON-RPC (the client would fail on
 * anything else), logs go to stderr, and a tool call reaches the mock upstream through the env base URLs.
 */
import assert from "node:assert/strict";
import { ALL_TOOLS } from "../../src/catalog.ts";
import { Client } from "../../src/sdk_client.ts";
import { startMockUpstream } from "../../scripts/mock_upstream.ts";
import { childEnv, ROOT } from "./helpers.ts";
import { StdioClientTransport } from "./sdk_client.ts";

async function connect(permissions: string[], env: Record<string, string> = {}) {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...permissions, "main.ts", "serve", "--transport", "stdio"],
    cwd: ROOT,
    env: childEnv(env),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => (stderr += new TextDecoder().decode(chunk)));
  const client = new Client({ name: "e2e-stdio", version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

Deno.test("stdio server under -P=stdio: initialize, tools/list, validation errors, logs on stderr", async (t) => {
  const { client, stderr } = await connect(["-P=stdio"]);
  try {
    await t.step("tools/list returns the whole catalogue with output schemas", async () => {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((x) => x.name), ALL_TOOLS.map((x) => x.name));
      for (const tool of tools) assert.equal(tool.outputSchema?.type, "object", tool.name);
    });
    await t.step("ping", async () => {
      assert.deepEqual(await client.ping(), {});
    });
    if (ALL_TOOLS.length > 0) {
      await t.step("an unknown argument is an INVALID_INPUT tool error", async () => {
        const result = await client.callTool({ name: ALL_TOOLS[0].name, arguments: { bogus_argument: 1 } });
        assert.equal(result.isError, true);
        assert.equal((result.structuredContent as { error: { code: string } }).error.code, "INVALID_INPUT");
      });
    }
    for (const def of ALL_TOOLS.filter((d) => !d.annotations.openWorldHint)) {
      await t.step(`local tool ${def.name} runs within -P=stdio (no network; PDF worker allowed)`, async () => {
        for (const example of def.examples) {
          const result = await client.callTool({ name: def.name, arguments: example });
          assert.notEqual(result.isError, true, JSON.stringify(result.structuredContent));
        }
      });
    }
    await t.step("log lines are JSON on stderr", () => {
      const ready = stderr().split("\n").find((l) => l.includes("stdio server ready"));
      assert.ok(ready, stderr());
      assert.equal(JSON.parse(ready).level, "info");
    });
  } finally {
    await client.close();
  }
});

Deno.test({
  name: "stdio server calls a tool against the mock upstream and streams its logs",
  ignore: ALL_TOOLS.length === 0,
  fn: async () => {
    const mock = await startMockUpstream();
    const def = ALL_TOOLS[0];
    const { client } = await connect(["-P=stdio", `--allow-net=127.0.0.1:${mock.port}`], {
      ...mock.env,
      PDF_ROOT: `${ROOT}files`,
    });
    const levels: string[] = [];
    client.setNotificationHandler("notifications/message", (n) => void levels.push(n.params.level));
    try {
      await client.setLoggingLevel("debug");
      const result = await client.callTool({ name: def.name, arguments: def.examples[0] });
      assert.equal(result.isError, undefined, JSON.stringify(result.structuredContent));
      assert.equal(def.output.safeParse(result.structuredContent).success, true);
      assert.ok(mock.requests.length > 0, "the call reached the mock upstream");
      await new Promise((r) => setTimeout(r, 50));
      assert.ok(levels.includes("info"), "log notifications arrive over stdio");
    } finally {
      await client.close();
      await mock.close();
    }
  },
});

Deno.test("stdio server: every stdout line is a JSON-RPC message, even while tools run", async () => {
  const local = ALL_TOOLS.filter((d) => !d.annotations.openWorldHint);
  const requests = [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 2, method: "logging/setLevel", params: { level: "debug" } },
    ...local.map((d, i) => ({
      jsonrpc: "2.0",
      id: 10 + i,
      method: "tools/call",
      params: { name: d.name, arguments: d.examples[0] },
    })),
    { jsonrpc: "2.0", id: 3, method: "tools/list" },
  ];
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-P=stdio", "main.ts", "serve", "--transport", "stdio"],
    cwd: ROOT,
    env: childEnv(),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  for (const request of requests) await writer.write(new TextEncoder().encode(JSON.stringify(request) + "\n"));
  const lines: Record<string, unknown>[] = [];
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const expected = new Set([1, 2, 3, ...local.map((_, i) => 10 + i)]);
  while (expected.size > 0) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    const complete = buffer.split("\n");
    buffer = complete.pop()!;
    for (const line of complete) {
      const message = JSON.parse(line);
      assert.equal(message.jsonrpc, "2.0", line);
      lines.push(message);
      expected.delete(message.id as number);
    }
  }
  await writer.close();
  while (!(await reader.read()).done) {
    // drain until the server exits
  }
  await child.stderr.cancel();
  const { code } = await child.status;
  assert.equal(code, 0, "the server exits cleanly when stdin ends");
  assert.deepEqual([...expected], [], "every request was answered");
  assert.ok(lines.some((m) => m.method === "notifications/message"), "log notifications travel on stdout");
});
