import assert from "node:assert/strict";
import { memoryLogger } from "../../src/core/log.ts";
import { runStdio } from "../../src/transports/stdio.ts";
import { StdioLinesTransport, SYNC_WRITE_BYTES } from "../../src/transports/stdio_lines.ts";
import { testRuntime } from "../helpers/runtime.ts";

/** runStdio over in-memory pipes: write lines in (any chunking), read answers out. */
function stdioServer(maxMessageBytes: number) {
  const input = new TransformStream<Uint8Array, Uint8Array>();
  const writer = input.writable.getWriter();
  const answers: Record<string, unknown>[] = [];
  let pending = "";
  const waiters: (() => void)[] = [];
  const output = new WritableStream<Uint8Array>({
    write(chunk) {
      pending += new TextDecoder().decode(chunk);
      for (let i = pending.indexOf("\n"); i >= 0; i = pending.indexOf("\n")) {
        answers.push(JSON.parse(pending.slice(0, i)));
        pending = pending.slice(i + 1);
      }
      waiters.splice(0).forEach((w) => w());
    },
  });
  const log = memoryLogger();
  const runtime = testRuntime({ log });
  const done = runStdio(runtime, { input: input.readable, output, maxMessageBytes });
  const encoder = new TextEncoder();
  return {
    log,
    answers,
    write: (text: string) => writer.write(encoder.encode(text)),
    /** Resolves once `n` answers have arrived. */
    async answered(n: number) {
      while (answers.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
      return answers.slice(0, n);
    },
    async end() {
      await writer.close();
      await done;
    },
  };
}

const ping = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "ping" }) + "\n";

Deno.test("stdio: an oversized message is answered with an error to its id, logged, and the next line is served", async () => {
  const server = stdioServer(64 * 1024);
  try {
    const huge = JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "search_genes", arguments: { query: "x".repeat(200_000) } },
    });
    // Arrives in pieces, as a pipe delivers it: the limit holds across chunks.
    for (let i = 0; i < huge.length; i += 10_000) await server.write(huge.slice(i, i + 10_000));
    await server.write("\n" + ping(8));
    const [refused, pong] = await server.answered(2);
    assert.equal(refused.id, 7);
    const error = refused.error as { code: number; message: string };
    assert.equal(error.code, -32600);
    assert.match(error.message, /the message is 0\.2 MiB; stdio accepts at most 65536 bytes per message/);
    assert.deepEqual(pong, { jsonrpc: "2.0", id: 8, result: {} });
    const record = server.log.records.find((r) => r.msg === "stdio message refused")!;
    assert.equal(record.level, "warning");
    assert.equal(record.id, 7);
    assert.equal(record.bytes, huge.length);
    assert.ok(String(record.excerpt).length < 260, "the log quotes an excerpt, not the message");
  } finally {
    await server.end();
  }
});

Deno.test("stdio: malformed, too deeply nested and non-JSON-RPC lines get errors; the server keeps serving", async () => {
  const server = stdioServer(10 * 1024 * 1024);
  try {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    await server.write("{not json\n");
    await server.write(
      `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"x","arguments":{"q":${deep}}}}\n`,
    );
    await server.write(`${deep}\n`);
    await server.write(`{"hello":"world","id":"s-4"}\n`);
    await server.write("\n   \n" + ping(5));
    const answers = await server.answered(5);
    assert.deepEqual(
      answers.map((a) => [a.id, (a.error as { code?: number } | undefined)?.code]),
      [[null, -32700], [3, -32700], [null, -32700], ["s-4", -32600], [5, undefined]],
    );
    assert.match((answers[1].error as { message: string }).message, /nests deeper than 64 levels/);
    const excerpts = server.log.records.filter((r) => r.msg === "stdio message refused").map((r) => String(r.excerpt));
    assert.equal(excerpts.length, 4);
    assert.ok(excerpts.every((e) => e.length < 260), "long lines are quoted as short excerpts");
  } finally {
    await server.end();
  }
});

Deno.test("stdio: the server stops cleanly when its input ends, even mid-line", async () => {
  const server = stdioServer(1024);
  await server.write(ping(1));
  await server.answered(1);
  await server.write('{"jsonrpc":"2.0","id":2,"method":"pi');
  await server.end();
  assert.ok(server.log.records.some((r) => r.msg === "stdio server stopped"));
});

Deno.test("stdio: small answers are written at once, in order behind a large one still streaming", async () => {
  const decoder = new TextDecoder();
  const written: number[] = [];
  const texts = new Map<number, string>();
  const ids = (bytes: Uint8Array) =>
    decoder.decode(bytes).trim().split("\n").forEach((line) => {
      const { id, result } = JSON.parse(line);
      written.push(id);
      texts.set(id, result.text);
    });
  const gate = Promise.withResolvers<void>();
  const output = new WritableStream<Uint8Array>({
    async write(chunk) {
      await gate.promise;
      ids(chunk);
    },
  });
  let partial = new Uint8Array();
  const transport = new StdioLinesTransport({
    input: new ReadableStream(),
    output,
    // A pipe may take part of a write: at most 100 bytes per call here.
    writeSync: (bytes) => {
      const taken = bytes.subarray(0, 100);
      partial = new Uint8Array([...partial, ...taken]);
      if (partial.at(-1) === 0x0a) {
        ids(partial);
        partial = new Uint8Array();
      }
      return taken.length;
    },
    log: memoryLogger(),
  });
  const answer = (id: number, size: number) => ({ jsonrpc: "2.0" as const, id, result: { text: "x".repeat(size) } });
  await transport.send(answer(1, 500));
  assert.deepEqual(written, [1]);
  const large = transport.send(answer(2, SYNC_WRITE_BYTES));
  const small = transport.send(answer(3, 10));
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual(written, [1], "nothing overtakes the large answer while it waits for the pipe");
  gate.resolve();
  await Promise.all([large, small]);
  await transport.send(answer(4, 10));
  // Within the limit in characters, over it in bytes: streamed, from a copy of the reused buffer.
  const accents = { jsonrpc: "2.0" as const, id: 5, result: { text: "é".repeat(40_000) } };
  await Promise.all([transport.send(accents), transport.send(answer(6, 10))]);
  assert.deepEqual(written, [1, 2, 3, 4, 5, 6]);
  assert.equal(texts.get(5), accents.result.text);
});

Deno.test("stdio: a byte source (stdin read directly) is served like a stream; its output stream is made only when needed", async () => {
  const encoder = new TextEncoder();
  const big = JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { q: "y".repeat(5000) } });
  const text = ping(1) + big + "\n" + '{"jsonrpc":"2.0","id":2,' + '"method":"ping"}\n';
  const bytes = encoder.encode(text);
  // Delivers a few bytes per read into the transport's own buffer, as a pipe does, and overwrites
  // the rest of that buffer with junk: a chunk kept past its read would be corrupted.
  let offset = 0;
  const source = {
    read(buffer: Uint8Array): Promise<number | null> {
      if (offset >= bytes.length) return Promise.resolve(null);
      const n = Math.min(37, bytes.length - offset, buffer.length);
      buffer.fill(0x7b);
      buffer.set(bytes.subarray(offset, offset + n));
      offset += n;
      return Promise.resolve(n);
    },
  };
  const received: unknown[] = [];
  const streamed: string[] = [];
  let made = 0;
  const transport = new StdioLinesTransport({
    input: source,
    output: () => {
      made++;
      return new WritableStream<Uint8Array>({ write: (chunk) => void streamed.push(new TextDecoder().decode(chunk)) });
    },
    writeSync: (chunk) => chunk.length,
    log: memoryLogger(),
    maxMessageBytes: 1024,
  });
  const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
  transport.onmessage = (message) => void received.push(message);
  await transport.send({ jsonrpc: "2.0", id: 0, result: {} });
  assert.equal(made, 0, "an answer that fits writeSync needs no stream");
  await transport.start();
  await closed;
  assert.deepEqual(received, [
    { jsonrpc: "2.0", id: 1, method: "ping" },
    { jsonrpc: "2.0", id: 2, method: "ping" },
  ]);
  // The oversized line was refused to its id (recovered from its head, read over many reads).
  assert.equal(made, 1, "the stream is made for the refusal, not before");
  assert.equal(JSON.parse(streamed[0]).id, 9);
});
