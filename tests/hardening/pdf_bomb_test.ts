/**
 * A decompression bomb (4 MB of FlateDecode inflating to 4 GiB, built at test time) through search_pdf
 * with the production extractor: the call ends with a specific error, the extractor process that read
 * it is killed (not left running, as a worker thread was), the server's memory stays small, nothing
 * keeps burning CPU, and a repeat is answered from the remembered verdict without a new extraction.
 * Resource assertions only: how long the bomb takes to hit its memory cap depends on the machine.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { decompressionBomb } from "../../scripts/hostile_pdfs.ts";
import { loadConfig } from "../../src/config.ts";
import { createLogger } from "../../src/core/log.ts";
import { createRuntime } from "../../src/runtime.ts";
import { Client, InMemoryTransport } from "../../src/sdk_client.ts";
import { createMcpServer } from "../../src/server.ts";
import { toolContext } from "../../src/runtime.ts";
import { workerExtractor } from "../../src/sources/pdf/extractor.ts";

const MIB = 1024 * 1024;
const linux = Deno.build.os === "linux";

/** utime + stime of a process in clock ticks, or undefined once it is gone (or a zombie awaiting reaping). */
async function cpuTicks(pid: number): Promise<number | undefined> {
  try {
    const fields = (await Deno.readTextFile(`/proc/${pid}/stat`)).split(") ")[1].split(" ");
    return fields[0] === "Z" ? undefined : Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/** Waits up to `ms` for the process to be gone; whether it is. */
async function goneWithin(pid: number, ms: number): Promise<boolean> {
  for (let waited = 0; waited <= ms; waited += 100) {
    if (await cpuTicks(pid) === undefined) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

async function residentBytes(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`).catch(() => "");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

Deno.test({
  name:
    "a decompression bomb: specific error, its extractor killed, server memory < 700 MB, no CPU burnt, repeat cached",
  ignore: !linux,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const root = await Deno.makeTempDir({ prefix: "pdf_bomb_" });
    await Deno.writeFile(join(root, "bomb.pdf"), decompressionBomb());
    const runtime = createRuntime({
      // No call deadline: on a loaded machine the bomb may take longer than 60 s to reach its memory cap.
      config: loadConfig({ PDF_ROOT: root, SCIENCE_MCP_TOOLSETS: "pdf", TOOL_CALL_TIMEOUT_MS: "0" }),
      log: createLogger({ level: "error", sinks: [] }),
    });
    const server = createMcpServer(runtime);
    const client = new Client({ name: "pdf-bomb", version: "1" });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(b);
    await client.connect(a);
    const extractor = workerExtractor(toolContext(runtime, { signal: new AbortController().signal, requestId: "t" }));
    const seen = new Set<number>();
    const watch = setInterval(() => extractor.pool.pids.forEach((pid) => seen.add(pid)), 10);
    const search = () =>
      client.callTool({ name: "search_pdf", arguments: { pdf_name: "bomb", query: "x" } }, { timeout: 600_000 });
    try {
      const first = await search();
      clearInterval(watch);
      const error = (first.structuredContent as { error?: string }).error ?? "";
      assert.match(error, /needed more than \d+ MB of memory|PDF_TIMEOUT_MS|extractor stopped/);
      assert.ok(seen.size > 0, "the bomb was read by an extractor process");

      // The pool dropped the process that read the bomb when the call ended; soon after it no longer exists.
      const alive = [...seen].filter((pid) => extractor.pool.pids.includes(pid));
      assert.ok(
        alive.length < seen.size,
        `the process that read the bomb was dropped (seen ${[...seen]}, alive ${alive})`,
      );
      for (const pid of seen) {
        if (!alive.includes(pid)) assert.ok(await goneWithin(pid, 60_000), `process ${pid} no longer exists`);
      }
      const before = await Promise.all(alive.map(cpuTicks));
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const after = await Promise.all(alive.map(cpuTicks));
      alive.forEach((pid, i) => {
        assert.ok((after[i] ?? 0) - (before[i] ?? 0) <= 5, `idle extractor ${pid} burns no CPU`);
      });
      for (const pid of alive) assert.ok(await residentBytes(pid) < 300 * MIB, `idle extractor ${pid} is small`);
      // `deno test --parallel` runs other test modules in this same process, so its RSS is theirs too: judge
      // the memory of this thread, where the server runs (an inflated bomb would sit in its heap or buffers).
      const { heapTotal, external } = Deno.memoryUsage();
      assert.ok(
        heapTotal + external < 700 * MIB,
        `server heap + buffers ${((heapTotal + external) / MIB).toFixed(0)} MiB`,
      );

      const spawned = extractor.pool.spawned;
      const again = await search();
      assert.equal((again.structuredContent as { error?: string }).error, error, "the same verdict");
      assert.equal(extractor.pool.spawned, spawned, "the repeat started no extraction");
    } finally {
      clearInterval(watch);
      await client.close();
      await server.close();
      await runtime.close();
      await Deno.remove(root, { recursive: true });
    }
  },
});
