/**
 * The real servers under the permission sets the README documents: `deno run -P=stdio mod.ts serve` and
 * `deno run -P=http mod.ts serve`. Upstreams are the mock on 127.0.0.1, which the production sets do not
 * grant, so the one change is `--allow-net=<the set's own hosts>,127.0.0.1:<mock>` (plus the HTTP listen
 * port): `--allow-net` replaces the set's net list and leaves read, write and env exactly as the set has
 * them. Under that, every tool's first example works; and a base URL on a loopback port outside the set,
 * a PDF_ROOT outside ./files and a LOGS_DIR outside ./logs all fail with no connection, read or write made.
 * (permission_probe_test.ts proves the sets' raw boundaries, env variables included.) The mock's rate
 * referee is off: these tests are about permissions, and its real-time judgement of pacing (that is the
 * pacing bench's job) would turn a busy machine's jitter into 429s.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ALL_TOOLS } from "../../src/catalog.ts";
import { startMockUpstream } from "../../scripts/mock_upstream.ts";
import { McpHttpSession } from "../../scripts/load_test/mcp_session.ts";
import { startServerProcess } from "../../scripts/load_test/server_process.ts";
import { startStdioServer } from "../../scripts/load_test/stdio_session.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const denoJson = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
const stdioNet = (denoJson.permissions?.stdio?.net ?? []) as string[];

type Call = (name: string, args: unknown) => Promise<{ ok: boolean; structured?: Record<string, unknown> }>;

/** A loopback port nobody granted; counts the connections that (must not) arrive. */
function ungrantedListener() {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const state = { port: (listener.addr as Deno.NetAddr).port, connections: 0 };
  const accepting = (async () => {
    for await (const conn of listener) {
      state.connections++;
      conn.close();
    }
  })().catch(() => {});
  return { state, close: async () => (listener.close(), await accepting) };
}

async function everyToolWorks(call: Call): Promise<void> {
  const failures = (await Promise.all(
    ALL_TOOLS.filter((t) => t.examples.length).map(async (def) => {
      const r = await call(def.name, def.examples[0]);
      return r.ok ? undefined : `${def.name}: ${JSON.stringify(r.structured).slice(0, 300)}`;
    }),
  )).filter(Boolean);
  assert.deepEqual(failures, []);
}

/** A base URL outside the set, a PDF_ROOT outside ./files: specific failures, nothing reached. */
async function confined(call: Call, port: () => number, connections: () => number): Promise<void> {
  const search = ALL_TOOLS.find((t) => t.name === "searchPubMedArticles");
  if (search) {
    const r = await call(search.name, search.examples[0]);
    assert.equal(r.ok, false);
    const error = r.structured?.error as { code: string; message: string };
    assert.equal(error.code, "NOT_AVAILABLE", JSON.stringify(error));
    assert.match(error.message, new RegExp(`127\\.0\\.0\\.1:${port()}`));
    assert.match((error as { recovery_hint?: string }).recovery_hint ?? "", /--allow-net/);
    assert.equal(connections(), 0, "the refused host was contacted");
  }
  if (ALL_TOOLS.some((t) => t.name === "search_pdf")) {
    const r = await call("search_pdf", { pdf_name: "outside", query: "heparin" });
    assert.equal(r.structured?.query_exists ?? false, false, JSON.stringify(r.structured));
    const list = await call("list_pdfs", {});
    assert.doesNotMatch(JSON.stringify(list.structured), /outside/);
  }
}

async function outsidePdfRoot(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "sandbox_pdf_root_" });
  await Deno.copyFile(`${ROOT}files/dvt_prophylaxis_review.pdf`, join(dir, "outside.pdf"));
  return dir;
}

Deno.test({
  name: "stdio server under -P=stdio: every tool works; unlisted host, PDF root and logs dir are refused",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    const mock = await startMockUpstream({ rates: false });
    const net = [`--allow-net=${[...stdioNet, `127.0.0.1:${mock.port}`].join(",")}`];
    const refused = ungrantedListener();
    const pdfRoot = await outsidePdfRoot();
    try {
      await t.step("every tool's first example succeeds against the mock", async () => {
        const server = await startStdioServer(mock.env, net);
        try {
          await everyToolWorks(server.call);
        } finally {
          await server.close();
        }
      });
      await t.step("a base URL outside the set and a PDF_ROOT outside ./files fail; nothing is reached", async () => {
        const env = {
          ...mock.env,
          NCBI_EUTILS_BASE_URL: `http://127.0.0.1:${refused.state.port}/ncbi`,
          PDF_ROOT: pdfRoot,
        };
        const server = await startStdioServer(env, net);
        try {
          await confined(server.call, () => refused.state.port, () => refused.state.connections);
        } finally {
          await server.close();
        }
      });
      await t.step("a LOGS_DIR outside ./logs stops the server at start-up and is never created", async () => {
        const logs = join(await Deno.makeTempDir({ prefix: "sandbox_logs_" }), "logs");
        await assert.rejects(() => startStdioServer({ ...mock.env, LOGS_DIR: logs }, net), /NotCapable|exited/);
        await assert.rejects(() => Deno.stat(logs), Deno.errors.NotFound);
      });
    } finally {
      await refused.close();
      await mock.close();
      await Deno.remove(pdfRoot, { recursive: true });
    }
  },
});

Deno.test({
  name: "HTTP server under -P=http: listens only where granted; every tool works; unlisted host and PDF root refused",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    const mock = await startMockUpstream({ rates: false });
    const refused = ungrantedListener();
    const pdfRoot = await outsidePdfRoot();
    try {
      await t.step("a listen port outside the set stops the server at start-up", async () => {
        const output = await new Deno.Command(Deno.execPath(), {
          args: ["run", "-P=http", "mod.ts", "serve", "--transport", "http", "--port", String(refused.state.port + 1)],
          cwd: ROOT,
          clearEnv: true,
          env: { PATH: Deno.env.get("PATH") ?? "", MCP_AUTH_MODE: "none", NO_COLOR: "1" },
          stdin: "null",
          stdout: "null",
          stderr: "piped",
        }).output();
        assert.notEqual(output.code, 0);
        assert.match(new TextDecoder().decode(output.stderr), /NotCapable|net access/);
      });
      await t.step("every tool's first example succeeds against the mock", async () => {
        const server = await startServerProcess({ env: mock.env, allowNet: [`127.0.0.1:${mock.port}`] });
        try {
          const session = await McpHttpSession.open(server.base);
          await everyToolWorks((name, args) => session.call(name, args));
          await session.close();
        } finally {
          await server.stop();
        }
      });
      await t.step("a base URL outside the set and a PDF_ROOT outside ./files fail; nothing is reached", async () => {
        const env = {
          ...mock.env,
          NCBI_EUTILS_BASE_URL: `http://127.0.0.1:${refused.state.port}/ncbi`,
          PDF_ROOT: pdfRoot,
        };
        const server = await startServerProcess({ env, allowNet: [`127.0.0.1:${mock.port}`] });
        try {
          const session = await McpHttpSession.open(server.base);
          await confined((n, a) => session.call(n, a), () => refused.state.port, () => refused.state.connections);
          await session.close();
        } finally {
          await server.stop();
        }
      });
      await t.step("a LOGS_DIR outside ./logs stops the server at start-up and is never created", async () => {
        const logs = join(await Deno.makeTempDir({ prefix: "sandbox_logs_" }), "logs");
        await assert.rejects(
          () => startServerProcess({ env: { ...mock.env, LOGS_DIR: logs }, allowNet: [] }),
          /LOGS_DIR=.*not writable/,
        );
        await assert.rejects(() => Deno.stat(logs), Deno.errors.NotFound);
      });
    } finally {
      await refused.close();
      await mock.close();
      await Deno.remove(pdfRoot, { recursive: true });
    }
  },
});
