/**
 * Idle costs nothing: a stdio server whose client lists resources and calls a non-PDF tool starts no PDF
 * extractor process; the first PDF search starts one and works; closing stdin ends the server and its
 * extractors. Child processes are read with `ps` (Linux).
 */
import assert from "node:assert/strict";
import { ALL_TOOLS } from "../../src/catalog.ts";
import { startMockUpstream } from "../../scripts/mock_upstream.ts";
import { childEnv, ROOT } from "./helpers.ts";
import { children, gone } from "./processes.ts";

/** A line-delimited JSON-RPC client over a server's stdio. */
function rpc(child: Deno.ChildProcess) {
  const writer = child.stdin.getWriter();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const send = (message: Record<string, unknown>) =>
    writer.write(new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n"));
  let buffer = "";
  let nextId = 1;
  return {
    async call(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
      const id = nextId++;
      await send({ id, method, params });
      for (;;) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the server closed stdout before answering ${method}`);
        const lines = (buffer + value).split("\n");
        buffer = lines.pop()!;
        const answer = lines.map((line) => JSON.parse(line)).find((message) => message.id === id);
        if (answer) return answer;
      }
    },
    notify: (method: string) => send({ method }),
    async close() {
      await writer.close();
      while (!(await reader.read()).done) {
        // drain until the server exits
      }
    },
  };
}

Deno.test({
  name: "a server whose client never touches a PDF starts no extractor; the first PDF search still works",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const mock = await startMockUpstream();
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-P=stdio", `--allow-net=127.0.0.1:${mock.port}`, "main.ts", "serve", "--transport", "stdio"],
      cwd: ROOT,
      env: childEnv({ ...mock.env, PDF_ROOT: `${ROOT}files` }),
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const client = rpc(child);
    try {
      await client.call("initialize", {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "idle", version: "1" },
      });
      await client.notify("notifications/initialized");
      await client.call("tools/list");
      const listed = await client.call("resources/list");
      assert.ok(JSON.stringify(listed).includes("pdf://files/dvt_prophylaxis_review"), "resources/list lists the PDF");
      const def = ALL_TOOLS.find((d) => d.toolset !== "pdf")!;
      const other = await client.call("tools/call", { name: def.name, arguments: def.examples[0] });
      assert.equal((other.result as { isError?: boolean }).isError, undefined, JSON.stringify(other));
      // Time enough for any start-up work in the background to have begun (it used to begin after 100 ms).
      await new Promise((r) => setTimeout(r, 1500));
      assert.deepEqual(await children(child.pid), [], "no extractor process was started");

      const search = await client.call("tools/call", {
        name: "search_pdf",
        arguments: { pdf_name: "dvt_prophylaxis_review", query: "heparin", topk: 1 },
      });
      const result = search.result as { isError?: boolean; structuredContent: { matches: unknown[] } };
      assert.equal(result.isError, undefined, JSON.stringify(search));
      assert.ok(result.structuredContent.matches.length > 0);
      const extractors = await children(child.pid);
      assert.ok(extractors.length > 0, "the first PDF search started an extractor");

      await client.close();
      assert.equal((await child.status).success, true);
      // An extractor ends on its own once the server is gone (its stdin closes); on a loaded machine that can
      // take a moment after the server's exit, so wait for the outcome rather than look once.
      for (const pid of extractors) {
        assert.equal(await gone(pid), true, `extractor ${pid} ended with the server`);
      }
    } finally {
      try {
        child.kill("SIGKILL");
      } catch {
        // exited
      }
      await child.status;
      await mock.close();
    }
  },
});
