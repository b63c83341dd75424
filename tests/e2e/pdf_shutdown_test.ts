/**
 * Shutdown stops the PDF extractors: `runtime.close()` kills them, and SIGTERM ends a `deno serve
 * --parallel` server that has searched a PDF, extractors included (an idle extractor must not hold the
 * process up once its listener has closed). Processes are read with `ps` (Linux).
 */
import assert from "node:assert/strict";
import { mintToken } from "../../scripts/token.ts";
import { createRuntime } from "../../src/runtime.ts";
import { workerExtractor } from "../../src/sources/pdf/extractor.ts";
import { pdfLibrary } from "../../src/sources/pdf/pdf_library.ts";
import { testConfig } from "../helpers/runtime.ts";
import { childEnv, freePort, permissionNet, ROOT, waitForHealth } from "./helpers.ts";
import { children, gone } from "./processes.ts";

const SECRET = "e2e-secret-that-is-long-enough-for-hs256!";

Deno.test({
  name: "runtime.close() ends the extractor processes a PDF search started",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const runtime = createRuntime({ config: testConfig({ PDF_ROOT: `${ROOT}files` }) });
    const ctx = { ...runtime.deps, shared: runtime.shared };
    const outcome = await pdfLibrary(ctx).open("dvt_prophylaxis_review");
    assert.equal(outcome.status, "ready");
    const pids = workerExtractor(ctx).pool.pids;
    assert.ok(pids.length > 0, "the search ran in an extractor process");
    await runtime.close();
    for (const pid of pids) assert.ok(await gone(pid), `extractor ${pid} ended`);
  },
});

Deno.test({
  name: "SIGTERM ends a deno serve --parallel server after a PDF search, extractors included",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const port = freePort();
    const net = (await permissionNet("http")).filter((h) => !h.endsWith(":3010"));
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "serve",
        "--parallel",
        "-P=http",
        `--allow-net=${[...net, `127.0.0.1:${port}`].join(",")}`,
        "--host",
        "127.0.0.1",
        "--port",
        String(port),
        "serve.ts",
      ],
      cwd: ROOT,
      env: childEnv({
        MCP_AUTH_SECRET_KEY: SECRET,
        MCP_SESSION_MODE: "stateless",
        PDF_ROOT: `${ROOT}files`,
        DENO_JOBS: "2",
      }),
      clearEnv: true,
      stdout: "null",
      stderr: "null",
    }).spawn();
    const base = `http://127.0.0.1:${port}`;
    try {
      await waitForHealth(base, 120_000);
      const response = await fetch(`${base}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-06-18",
          authorization: `Bearer ${await mintToken(SECRET)}`,
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "search_pdf", arguments: { pdf_name: "dvt_prophylaxis_review", query: "heparin" } },
        }),
      });
      const body = await response.text();
      assert.equal(response.status, 200, body);
      assert.match(body, /heparin/i);
      assert.doesNotMatch(body, /"isError":true/, body);
      const extractors = await children(child.pid);
      assert.ok(extractors.length > 0, "the search started an extractor");

      child.kill("SIGTERM");
      assert.ok(await gone(child.pid), "the server exited on SIGTERM");
      for (const pid of extractors) assert.ok(await gone(pid), `extractor ${pid} ended`);
    } finally {
      try {
        child.kill("SIGKILL");
      } catch {
        // exited
      }
      await child.status;
    }
  },
});
