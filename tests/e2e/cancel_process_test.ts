/**
 * Cancelling a call while its upstream is slow costs that call only, as real processes: stdio, both
 * protocol eras, `notifications/cancelled`, for fetch_content (pubmed and europepmc) and a multi-step
 * PubMed search. After each cancel the same server
 * answers the same call, and its log shows no unhandled rejection (one used to end the process).
 */
import assert from "node:assert/strict";
import { Client } from "../../src/sdk_client.ts";
import { UNHANDLED_REJECTION } from "../../src/core/rejection_guard.ts";
import { childEnv, ROOT } from "./helpers.ts";
import { startHeldUpstream } from "./held_upstream.ts";
import { StdioClientTransport } from "./sdk_client.ts";

const CALLS = [
  { name: "fetch_content", arguments: { source: "pubmed", id: "PMC3299399" } },
  { name: "fetch_content", arguments: { source: "europepmc", id: "PMC3258128" } },
  { name: "searchPubMedArticles", arguments: { queryTerm: "cancer", maxResults: 5, fetchBriefSummaries: 2 } },
];
type Era = "legacy" | "modern";
type Call = typeof CALLS[number];

function client(era: Era): Client {
  const options = era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } as const : {};
  return new Client({ name: `cancel-${era}`, version: "1.0.0" }, options);
}

/** Collects a child's stderr (JSON log lines) as it comes: a web stream or the SDK's Node stream. */
export function collect(stream: AsyncIterable<Uint8Array | string> | null | undefined) {
  let text = "";
  const decoder = new TextDecoder();
  const done = (async () => {
    for await (const chunk of stream ?? []) text += typeof chunk === "string" ? chunk : decoder.decode(chunk);
  })().catch(() => {});
  return { text: () => text, done };
}

/** The same call again must succeed: the server is alive and nothing of the cancelled call is stuck. */
async function answersAgain(c: Client, call: Call) {
  const again = await c.callTool(call);
  assert.notEqual(again.isError, true, JSON.stringify(again.structuredContent));
}

/** Cancels `call` through the SDK (`notifications/cancelled`). */
async function cancelWithSdk(c: Client, upstream: ReturnType<typeof startHeldUpstream>, call: Call) {
  upstream.hold();
  const controller = new AbortController();
  const pending = c.callTool(call, { signal: controller.signal }).then(() => "answered", () => "cancelled");
  await upstream.waiting();
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
