/**
 * The real servers under the permission sets the README documents: `deno run -P=stdio main.ts serve` and
 * `deno run -P=http main.ts serve`. Upstreams are the mock on 127.0.0.1, which the production sets do not
 * grant, so the one change is `--allow-net=<the set's own hosts>,127.0.0.1:<mock>` (plus the HTTP listen
 * port): `--allow-net` replaces the set's net list and leaves read, write and env exactly as the set has
 * them. Under that, every tool's first example works; and a base URL on a loopback port outside the set,
 * a PDF_ROOT outside ./files and a LOGS_DIR outside ./logs each stop the server at start (the preflight,
 * src/preflight.ts, names the setting) with no connection, read or write made.
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
import { CHILD_LIBRARY_DIR } from "../e2e/helpers.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const denoJson = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
const stdioNet = (denoJson.permissions?.stdio?.net ?? []) as string[];

/**
 * For the "every tool works" steps: no call deadline and a generous PDF budget, so a loaded machine (cold
 * PDF extractors, many tools at once) cannot turn a working tool into a timeout. Outcomes, not wall time.
 */
/** Also: save_paper's example writes a library folder of this test inside ./library, never ./library itself. */
const UNDER_LOAD = { TOOL_CALL_TIMEOUT_MS: "0", PDF_TIMEOUT_MS: "600000", LIBRARY_DIR: CHILD_LIBRARY_DIR };
const ANSWER_MS = 600_000;

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
  try {
    const failures = (await Promise.all(
      ALL_TOOLS.filter((t) => t.examples.length).map(async (def) => {
        const r = await call(def.name, def.examples[0]);
        return r.ok ? undefined : `${def.name}: ${JSON.stringify(r.structured).slice(0, 300)}`;
      }),
    )).filter(Boolean);
    assert.deepEqual(failures, []);
  } finally {
    await Deno.remove(CHILD_LIBRARY_DIR, { recursive: true }).catch(() => {});
  }
}

/** A base URL outside the set, a PDF_ROOT outside ./files: each stops the start naming it; nothing is reached. */
async function refusedAtStart(
  start: (env: Record<string, string>) => Promise<unknown>,
  env: Record<string, string>,
  pdfRoot: string,
  port: number,
  connections: () => number,
): Promise<void> {
  await assert.rejects(
    () => start({ ...env, NCBI_EUTILS_BASE_URL: `http://127.0.0.1:${port}/ncbi` }),
    new RegExp(`NCBI_EUTILS_BASE_URL=\\S+ needs net access to 127\\.0\\.0\\.1:${port}, which this run does not have`),
  );
  await assert.rejects(() => start({ ...env, PDF_ROOT: pdfRoot }), /PDF_ROOT=\S+ needs read access to /);
  assert.equal(connections(), 0, "the refused host was contacted");
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
        const server = await startStdioServer({ ...mock.env, ...UNDER_LOAD }, net, { answerMs: ANSWER_MS });
        try {
          await everyToolWorks(server.call);
        } finally {
          await server.close();
        }
      });
      await t.step(
        "a base URL outside the set or a PDF_ROOT outside ./files stops the start; nothing is reached",
        () =>
          refusedAtStart(
            (env) => startStdioServer(env, net),
            mock.env,
            pdfRoot,
            refused.state.port,
            () => refused.state.connections,
          ),
      );
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
          args: ["run", "-P=http", "main.ts", "serve", "--transport", "http", "--port", String(refused.state.port + 1)],
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
        const server = await startServerProcess({
          env: { ...mock.env, ...UNDER_LOAD },
          allowNet: [`127.0.0.1:${mock.port}`],
        });
        try {
          const session = await McpHttpSession.open(server.base);
          await everyToolWorks((name, args) => session.call(name, args));
          await session.close();
        } finally {
          await server.stop();
        }
      });
      await t.step(
        "a base URL outside the set or a PDF_ROOT outside ./files stops the start; nothing is reached",
        () =>
          refusedAtStart(
            (env) => startServerProcess({ env, allowNet: [`127.0.0.1:${mock.port}`] }),
            mock.env,
            pdfRoot,
            refused.state.port,
            () => refused.state.connections,
          ),
      );
      await t.step("a LOGS_DIR outside ./logs stops the server at start-up and is never created", async () => {
        const logs = join(await Deno.makeTempDir({ prefix: "sandbox_logs_" }), "logs");
        await assert.rejects(
          () => startServerProcess({ env: { ...mock.env, LOGS_DIR: logs }, allowNet: [`127.0.0.1:${mock.port}`] }),
          /LOGS_DIR=\S+ needs read access to /,
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
