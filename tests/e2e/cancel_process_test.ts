/**
 * Cancelling a call while its upstream is slow costs that call only, as real processes: stdio and
 * Streamable HTTP, both protocol eras, `notifications/cancelled` and a closed HTTP connection, for
 * fetch_content (pubmed and europepmc) and a multi-step PubMed search. After each cancel the same server
 * answers the same call, and its log shows no unhandled rejection (one used to end the process).
 */
import assert from "node:assert/strict";
import { Client } from "../../src/sdk_client.ts";
import { UNHANDLED_REJECTION } from "../../src/core/rejection_guard.ts";
import { childEnv, ROOT } from "./helpers.ts";
import { startHeldUpstream } from "./held_upstream.ts";
import { collect, rawSession, startHttpProcess } from "./server_process.ts";
import { StdioClientTransport, StreamableHTTPClientTransport } from "./sdk_client.ts";
import { modernRequest } from "../protocol/modern_helpers.ts";

/** `held`: upstream requests the call has in flight at once (cancelled once all are held). */
const CALLS = [
  { name: "fetch_content", arguments: { source: "pubmed", id: "PMC3299399" }, held: 2 },
  { name: "fetch_content", arguments: { source: "europepmc", id: "PMC3258128" }, held: 1 },
  {
    name: "searchPubMedArticles",
    arguments: { queryTerm: "cancer", maxResults: 5, fetchBriefSummaries: 2 },
    held: 1,
  },
];
type Era = "legacy" | "modern";
type Call = typeof CALLS[number];
const params = ({ name, arguments: args }: Call) => ({ name, arguments: args });

function client(era: Era): Client {
  const options = era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } as const : {};
  return new Client({ name: `cancel-${era}`, version: "1.0.0" }, options);
}

/** The same call again must succeed: the server is alive and nothing of the cancelled call is stuck. */
async function answersAgain(c: Client, call: Call) {
  const again = await c.callTool(params(call));
  assert.notEqual(again.isError, true, JSON.stringify(again.structuredContent));
}

/** Cancels `call` through the SDK (notifications/cancelled; on 2026-07-28 HTTP, the stream closes). */
async function cancelWithSdk(c: Client, upstream: ReturnType<typeof startHeldUpstream>, call: Call) {
  upstream.hold();
  const controller = new AbortController();
  const pending = c.callTool(params(call), { signal: controller.signal }).then(() => "answered", () => "cancelled");
  await upstream.waiting(call.held);
  controller.abort("the user pressed stop");
  assert.equal(await pending, "cancelled");
  upstream.release();
  await answersAgain(c, call);
}

function assertNoUnhandled(stderr: string) {
  assert.ok(!stderr.includes(UNHANDLED_REJECTION), `the guard caught a rejection:\n${stderr.slice(-3000)}`);
}

for (const era of ["legacy", "modern"] as const) {
  Deno.test(`stdio (${era}): a call cancelled mid-flight, then the same server answers it`, async (t) => {
    const upstream = startHeldUpstream();
    const transport = new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", "-P=stdio", `--allow-net=127.0.0.1:${upstream.port}`, "main.ts", "serve", "--transport", "stdio"],
      cwd: ROOT,
      env: childEnv(upstream.env),
      stderr: "pipe",
    });
    const stderr = collect(transport.stderr as AsyncIterable<Uint8Array> | null);
    const c = client(era);
    await c.connect(transport);
    try {
      for (const call of CALLS) {
        await t.step(`${call.name} ${JSON.stringify(call.arguments)}`, () => cancelWithSdk(c, upstream, call));
      }
    } finally {
      await c.close();
      await stderr.done;
      await upstream.close();
    }
    assertNoUnhandled(stderr.text());
  });
}

/** A call over raw HTTP whose client closes the connection once the upstream holds the call. */
async function disconnect(
  base: string,
  era: Era,
  upstream: ReturnType<typeof startHeldUpstream>,
  c: Client,
  call: Call,
) {
  upstream.hold();
  const controller = new AbortController();
  const message = { jsonrpc: "2.0", id: 99, method: "tools/call", params: params(call) };
  const pending = era === "legacy"
    ? (await rawSession(base))(message, controller.signal)
    : fetch(modernRequest("tools/call", params(call), { id: 99, base, signal: controller.signal }));
  // Reads on (a streamed answer sends its headers at once) until the abort closes the connection.
  const settled = pending.then((r) => r.text()).catch(() => {});
  await upstream.waiting(call.held);
  controller.abort();
  await settled;
  upstream.release();
  await answersAgain(c, call);
}

// One server per era and way of cancelling: each call is cancelled once, before any cache holds its answer.
for (const era of ["legacy", "modern"] as const) {
  for (const how of ["cancel", "disconnect"] as const) {
    const way = how === "disconnect"
      ? "the client closes the HTTP connection"
      : era === "legacy"
      ? "notifications/cancelled"
      : "the SDK closes the stream (2026-07-28 has no cancel notification over HTTP)";
    Deno.test(`Streamable HTTP (${era}), ${way}: the same server answers the call next`, async (t) => {
      const upstream = startHeldUpstream();
      const server = await startHttpProcess(upstream.port, upstream.env);
      const c = client(era);
      try {
        await c.connect(new StreamableHTTPClientTransport(new URL(`${server.base}/mcp`)));
        for (const call of CALLS) {
          await t.step(
            `${call.name} ${JSON.stringify(call.arguments)}`,
            () => how === "cancel" ? cancelWithSdk(c, upstream, call) : disconnect(server.base, era, upstream, c, call),
          );
        }
      } finally {
        await c.close();
        server.child.kill("SIGTERM");
        await server.child.status;
        await server.stderr.done;
        await upstream.close();
      }
      assertNoUnhandled(server.stderr.text());
    });
  }
}
