/**
 * SIGTERM with 100 calls in flight over Streamable HTTP, per protocol era, as a real process: every call
 * gets its result or the shutdown error envelope before the process exits, none a closed connection.
 * The upstream holds every request (slow NCBI / Europe PMC), so the calls are still running when the
 * grace period (MCP_SHUTDOWN_GRACE_MS) ends; the process must exit 0 and its log show no unhandled rejection.
 */
import assert from "node:assert/strict";
import { UNHANDLED_REJECTION } from "../../src/core/rejection_guard.ts";
import { modernRequest, readFinal } from "../protocol/modern_helpers.ts";
import { readMessage } from "../transports/http_helpers.ts";
import { startHeldUpstream } from "./held_upstream.ts";
import { rawSession, startHttpProcess } from "./server_process.ts";

const CALLS = 100;
/** Calls that wait on slow upstreams, several steps each; distinct arguments, so none is shared. */
const call = (i: number) =>
  [
    { name: "fetch_content", arguments: { source: "pubmed", id: "PMC3299399", max_chars: 1000 + i } },
    { name: "fetch_content", arguments: { source: "europepmc", id: "PMC3258128", max_chars: 1000 + i } },
    { name: "searchPubMedArticles", arguments: { queryTerm: `cancer ${i}`, maxResults: 5, fetchBriefSummaries: 2 } },
  ][i % 3];

for (const era of ["legacy", "modern"] as const) {
  Deno.test(`SIGTERM over HTTP (${era}): each of ${CALLS} calls in flight gets an answer, none a closed connection`, async () => {
    const upstream = startHeldUpstream();
    const server = await startHttpProcess(upstream.port, { ...upstream.env, MCP_SHUTDOWN_GRACE_MS: "1000" });
    try {
      upstream.hold();
      const posts = era === "legacy" ? await Promise.all(Array.from({ length: 5 }, () => rawSession(server.base))) : [];
      // Every call's response has started (its headers came: the server holds the request) before SIGTERM.
      const responses = await Promise.all(Array.from({ length: CALLS }, (_, i) => {
        const params = call(i);
        return era === "legacy"
          ? posts[i % posts.length]({ jsonrpc: "2.0", id: i, method: "tools/call", params })
          : fetch(modernRequest("tools/call", params, { id: i, base: server.base }));
      }));
      await upstream.waiting(3);
      server.child.kill("SIGTERM");
      const answers = await Promise.all(responses.map(async (response, i) => {
        try {
          const message = era === "legacy" ? await readMessage(response) : await readFinal(response);
          assert.equal(message.id, i);
          const error = message.error as { code: number; message: string } | undefined;
          if (error) {
            assert.equal(error.code, -32000, JSON.stringify(message));
            assert.match(error.message, /shutting down/);
            return "shutdown error";
          }
          assert.ok(message.result, JSON.stringify(message));
          return "result";
        } catch (cause) {
          return `no answer: ${cause}`;
        }
      }));
      const lost = answers.filter((a) => a.startsWith("no answer"));
      assert.deepEqual(lost, [], `${lost.length} of ${CALLS} calls got no answer`);
      const status = await server.child.status;
      assert.equal(status.code, 0, server.stderr.text().slice(-3000));
    } finally {
      upstream.release();
      try {
        server.child.kill("SIGKILL");
      } catch { /* it has exited */ }
      await server.child.status;
      await server.stderr.done;
      await upstream.close();
    }
    assert.ok(!server.stderr.text().includes(UNHANDLED_REJECTION), server.stderr.text().slice(-3000));
  });
}
