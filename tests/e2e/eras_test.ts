/**
 * Both protocol eras from the README's commands, with real SDK clients: the server runs as a subprocess
 * (`deno task start`'s and `deno task serve`'s command lines, plus a grant for the mock upstream), and
 * an SDK v2 client connects once in its default 2025 mode (`initialize`, a session) and once pinned to
 * 2026-07-28 (stateless, `server/discover`), calling a catalogue tool against the mock upstream.
 */
import assert from "node:assert/strict";
import { ALL_TOOLS } from "../../src/catalog.ts";
import { Client } from "../../src/sdk_client.ts";
import { startMockUpstream } from "../../scripts/mock_upstream.ts";
import { mintToken } from "../../scripts/token.ts";
import { childEnv, freePort, permissionNet, ROOT, waitForHealth } from "./helpers.ts";
import { StdioClientTransport, StreamableHTTPClientTransport } from "./sdk_client.ts";

const SECRET = "e2e-secret-that-is-long-enough-for-hs256!";
const MODERN = { versionNegotiation: { mode: { pin: "2026-07-28" } } } as const;

function client(era: "legacy" | "modern"): Client {
  return new Client({ name: `e2e-${era}`, version: "1.0.0" }, era === "modern" ? MODERN : {});
}

/** Calls the first catalogue tool with its first example; the answer must be a valid success. */
async function callFirstTool(c: Client) {
  const def = ALL_TOOLS[0];
  const result = await c.callTool({ name: def.name, arguments: def.examples[0] });
  assert.notEqual(result.isError, true, JSON.stringify(result.structuredContent));
  assert.equal(def.output.safeParse(result.structuredContent).success, true);
  assert.equal((result.content as { type: string }[])[0].type, "text");
}

Deno.test({
  name: "stdio (deno task start): a 2025 client and a 2026-07-28 client both call a tool",
  ignore: ALL_TOOLS.length === 0,
  fn: async (t) => {
    const mock = await startMockUpstream();
    const spawn = () =>
      new StdioClientTransport({
        command: Deno.execPath(),
        args: ["run", "-P=stdio", `--allow-net=127.0.0.1:${mock.port}`, "main.ts", "serve", "--transport", "stdio"],
        cwd: ROOT,
        env: childEnv(mock.env),
        stderr: "ignore",
      });
    try {
      for (const era of ["legacy", "modern"] as const) {
        await t.step(`${era} client`, async () => {
          const c = client(era);
          await c.connect(spawn());
          try {
            assert.equal(c.getProtocolEra(), era);
            if (era === "modern") {
              assert.deepEqual(c.getDiscoverResult()?.supportedVersions, ["2026-07-28", "2025-11-25"]);
              assert.equal(c.getServerVersion()?.name, "science-mcp");
            }
            const { tools } = await c.listTools();
            assert.equal(tools.length, ALL_TOOLS.length);
            let logs = 0;
            c.setNotificationHandler("notifications/message", () => void logs++);
            const before = mock.requests.length;
            await callFirstTool(c);
            assert.ok(mock.requests.length > before, "the call reached the mock upstream");
            if (era === "modern") assert.equal(logs, 0, "no log notifications for a request that names no level");
          } finally {
            await c.close();
          }
        });
      }
    } finally {
      await mock.close();
    }
  },
});

Deno.test({
  name: "Streamable HTTP (deno task serve): a 2025 session and stateless 2026-07-28 requests both call a tool",
  ignore: ALL_TOOLS.length === 0,
  fn: async (t) => {
    const mock = await startMockUpstream();
    const port = freePort();
    const net = (await permissionNet("http")).filter((h) => !h.endsWith(":3010"));
    const server = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-P=http",
        `--allow-net=${[...net, `127.0.0.1:${port}`, `127.0.0.1:${mock.port}`].join(",")}`,
        "main.ts",
        "serve",
        "--transport",
        "http",
      ],
      cwd: ROOT,
      env: childEnv({ ...mock.env, MCP_HTTP_PORT: String(port), MCP_AUTH_SECRET_KEY: SECRET }),
      clearEnv: true,
      stdout: "null",
      stderr: "null",
    }).spawn();
    const base = `http://127.0.0.1:${port}`;
    const headers = { authorization: `Bearer ${await mintToken(SECRET, { subject: "e2e" })}` };
    try {
      await waitForHealth(base);
      for (const era of ["legacy", "modern"] as const) {
        await t.step(`${era} client`, async () => {
          const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } });
          const c = client(era);
          await c.connect(transport);
          try {
            assert.equal(c.getProtocolEra(), era);
            assert.equal(transport.sessionId === undefined, era === "modern", "only 2025 clients hold a session");
            await callFirstTool(c);
          } finally {
            await c.close();
          }
        });
      }
      await t.step("a 2026-07-28 client without a token is refused like any other (401)", async () => {
        const c = client("modern");
        await assert.rejects(() => c.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`))));
      });
    } finally {
      server.kill("SIGTERM");
      await server.status;
      await mock.close();
    }
  },
});
