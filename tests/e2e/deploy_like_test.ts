/**
 * A Deno Deploy-like run: `deno serve serve.ts` under the `deploy` permission set (no subprocess, no file
 * write, the project's files readable, KV `default`), against the mock upstream. The server starts, says at
 * start what PDF extraction gives up there, and every tool's catalogue example succeeds, the PDF tools'
 * on the bundled sample included.
 */
import assert from "node:assert/strict";
import { TOOLSETS } from "../../src/catalog.ts";
import { Client } from "../../src/sdk_client.ts";
import { mintToken } from "../../scripts/token.ts";
import { startMockUpstream } from "../../scripts/mock_upstream.ts";
import { childEnv, freePort, ROOT, waitForHealth } from "./helpers.ts";
import { StreamableHTTPClientTransport } from "./sdk_client.ts";

const SECRET = "deploy-like-secret-that-is-at-least-32-bytes";

Deno.test("deploy permission set: no run, no write but the library; every tool's examples succeed over HTTP", async (t) => {
  const deploy = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`)).permissions.deploy;
  assert.equal(deploy.run, undefined, "the deploy set starts no process");
  assert.deepEqual(
    deploy.write,
    ["./library"],
    "the deploy set writes the paper library (save_paper) and nothing else",
  );

  // No rate referee: pacing is tested elsewhere, and here it would only make the run long.
  const mock = await startMockUpstream({ rates: false });
  const port = freePort();
  const server = new Deno.Command(Deno.execPath(), {
    args: ["serve", "-q", "-P=deploy", "--host", "127.0.0.1", "--port", String(port), "serve.ts"],
    cwd: ROOT,
    env: childEnv({
      ...mock.env,
      MCP_AUTH_SECRET_KEY: SECRET,
      MCP_SESSION_MODE: "stateless",
      SCIENCE_MCP_KV: "default",
      NCBI_REQUEST_DELAY_MS: "0",
      // Outcomes, not speed: a loaded machine must not turn a slow call into a failure.
      TOOL_CALL_TIMEOUT_MS: "600000",
    }),
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let stderr = "";
  const drained = (async () => {
    for await (const chunk of server.stderr.pipeThrough(new TextDecoderStream())) stderr += chunk;
  })();
  const base = `http://127.0.0.1:${port}`;
  const client = new Client({ name: "deploy-like", version: "1.0.0" });
  try {
    await waitForHealth(base, 120_000);
    const token = await mintToken(SECRET, { subject: "deploy-test", ttlSeconds: 3600 });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    await t.step("start-up says PDF extraction runs without process isolation here", () => {
      assert.match(stderr, /PDF extraction runs in worker threads/);
    });
    for (const toolset of TOOLSETS) {
      for (const def of toolset.tools) {
        // The first example of each tool: the set is under test here, not the tools (the catalogue contract
        // test runs every example).
        const example = (def.examples as Record<string, unknown>[])[0] ?? {};
        await t.step(def.name, async () => {
          const result = await client.callTool({ name: def.name, arguments: example }, { timeout: 600_000 });
          assert.notEqual(result.isError, true, JSON.stringify(result.structuredContent).slice(0, 400));
        });
      }
    }
  } finally {
    await client.close().catch(() => {});
    // Shutdown is tested elsewhere (tests/transports/shutdown_test.ts); here it must not hold the test.
    server.kill("SIGKILL");
    await server.status;
    await drained;
    await mock.close();
  }
});
