import assert from "node:assert/strict";
import { runStdio } from "../../src/transports/stdio.ts";
import { testRuntime } from "../helpers/runtime.ts";
import { modernBody } from "../protocol/modern_helpers.ts";
import { blockingTool, callTool, INITIALIZE } from "./http_helpers.ts";

/** runStdio over in-memory pipes with a blocking tool; `stop` plays the part of SIGTERM. */
function stdioServer(graceMs: number) {
  const block = blockingTool();
  const input = new TransformStream<Uint8Array, Uint8Array>();
  const writer = input.writable.getWriter();
  const answers: Record<string, unknown>[] = [];
  let pending = "";
  const output = new WritableStream<Uint8Array>({
    write(chunk) {
      pending += new TextDecoder().decode(chunk);
      for (let i = pending.indexOf("\n"); i >= 0; i = pending.indexOf("\n")) {
        answers.push(JSON.parse(pending.slice(0, i)));
        pending = pending.slice(i + 1);
      }
    },
  });
  const stop = new AbortController();
  const done = runStdio(testRuntime(), {
    input: input.readable,
    output,
    extension: block.extension,
    graceMs,
    stop: stop.signal,
  });
  return {
    block,
    answers,
    send: (message: unknown) => writer.write(new TextEncoder().encode(JSON.stringify(message) + "\n")),
    /** Shuts down as SIGTERM does and waits until the server has stopped. */
    async terminate() {
      stop.abort();
      await done;
      await writer.close().catch(() => {});
    },
  };
}

const finalOf = (answers: Record<string, unknown>[], id: number) => answers.find((a) => a.id === id && !a.method);

for (const era of ["2025-11-25", "2026-07-28"]) {
  Deno.test(`stdio shutdown (${era}): calls still running after the grace period get a JSON-RPC error`, async () => {
    const server = stdioServer(10);
    const ids = [11, 12, 13];
    if (era === "2025-11-25") {
      await server.send(INITIALIZE);
      await server.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      for (const id of ids) await server.send(callTool(id, "test_block"));
    } else {
      for (const id of ids) await server.send(modernBody("tools/call", { name: "test_block", arguments: {} }, { id }));
    }
    await server.block.started;
    await server.terminate();
    for (const id of ids) {
      const error = finalOf(server.answers, id)?.error as { code: number; message: string } | undefined;
      assert.equal(error?.code, -32000, `call ${id}: ${JSON.stringify(server.answers)}`);
      assert.match(error!.message, /shutting down.*send it again/);
    }
  });
}

Deno.test("stdio shutdown: a call that finishes within the grace period gets its result", async () => {
  const server = stdioServer(60_000);
  await server.send(INITIALIZE);
  await server.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  await server.send(callTool(21, "test_block"));
  await server.block.started;
  const stopping = server.terminate();
  server.block.release();
  await stopping;
  assert.deepEqual(finalOf(server.answers, 21)?.result, { content: [{ type: "text", text: "released" }] });
});
