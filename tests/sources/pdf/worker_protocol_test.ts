/** The extractor's pipe protocol: frames survive any chunking, index offsets arrive as sent. */
import assert from "node:assert/strict";
import { concatBytes } from "../../../src/render/png_file.ts";
import { buildIndex } from "../../../src/sources/pdf/normalize.ts";
import { release } from "../../../src/sources/pdf/release.ts";
import {
  decodeReply,
  decodeRequest,
  encodeReply,
  readerInto,
  readFrame,
  type ReadInto,
  requestParts,
  streamInto,
  type WorkerReply,
} from "../../../src/sources/pdf/worker_protocol.ts";

Deno.test("a reply with an index arrives whole through a byte stream that delivers it a few bytes at a time", async () => {
  const text = "Influential nodes\fﬁnd the ﬁrst  page’s  NODES again";
  const reply: WorkerReply = {
    id: 7,
    kind: "done",
    pageCount: 2,
    first: 1,
    pages: text.split("\f"),
    unreadable: [],
    index: buildIndex(text),
  };
  const frame = encodeReply(reply);
  const read = streamInto(byteStream(frame, 5));
  const received: WorkerReply[] = [];
  for (let got = await readFrame(read); got; got = await readFrame(read)) {
    received.push(decodeReply(got.message, got.binary));
  }
  assert.equal(received.length, 1);
  const got = received[0] as Extract<WorkerReply, { kind: "done" }>;
  assert.deepEqual(got.pages, reply.pages);
  assert.equal(got.index?.text, reply.index!.text);
  assert.deepEqual([...got.index!.from], [...reply.index!.from]);
  assert.deepEqual([...got.index!.to], [...reply.index!.to]);
});

Deno.test("index offsets arrive exact whatever they hold (jumps back, repeats, values near 2^32)", async () => {
  const from = Uint32Array.from([0, 1, 2, 2, 900, 5, 4_294_967_295]);
  const to = Uint32Array.from([1, 2, 3, 3, 901, 6, 0]);
  const reply: WorkerReply = {
    id: 1,
    kind: "indexed",
    index: { text: "abcdefg", from, to },
  };
  // Offsets at an odd byte position of their buffer: the reader copies them out.
  const frame = encodeReply(reply);
  const shifted = new Uint8Array(frame.length + 1);
  shifted.set(frame, 1);
  const got = await decodeOne(shifted.subarray(1)) as Extract<WorkerReply, { kind: "indexed" }>;
  assert.deepEqual([...got.index.from], [...from]);
  assert.deepEqual([...got.index.to], [...to]);
});

Deno.test("a reply whose offsets do not match its text's length is an error, not garbage", async () => {
  const frame = encodeReply({
    id: 1,
    kind: "indexed",
    index: { text: "abc", from: Uint32Array.of(0, 1, 2), to: Uint32Array.of(1, 2, 3) },
  });
  const got = await readFrame(streamInto(byteStream(frame, 4096)));
  assert.throws(() => decodeReply(got!.message, got!.binary.subarray(0, got!.binary.length - 4)), /truncated/);
});

/** The one reply in `bytes`. */
async function decodeOne(bytes: Uint8Array): Promise<WorkerReply> {
  const read = streamInto(byteStream(bytes, 4096));
  const got = await readFrame(read);
  assert.equal(await readFrame(read), undefined);
  return decodeReply(got!.message, got!.binary);
}

Deno.test("each frame read from a stream owns exactly its memory, so giving it back frees nothing else", async () => {
  const text = "x".repeat(1000);
  const first = encodeReply({ id: 1, kind: "indexed", index: buildIndex(text) });
  const second = encodeReply({ id: 2, kind: "indexed", index: buildIndex(text) });
  const both = new Uint8Array(first.length + second.length);
  both.set(first);
  both.set(second, first.length);
  const read = streamInto(byteStream(both, 700));
  const one = (await readFrame(read))!;
  assert.equal(one.binary.buffer.byteLength, first.length - 8, "the frame's body, no more");
  release(one.binary);
  assert.equal(one.binary.buffer.byteLength, 0, "given back");
  const two = (await readFrame(read))!;
  assert.equal(decodeReply(two.message, two.binary).id, 2);
  assert.equal(await readFrame(read), undefined);
});

/** A byte stream (as a child's stdout is) that delivers `bytes` at most `step` at a time. */
function byteStream(bytes: Uint8Array, step: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    type: "bytes",
    pull(controller) {
      if (at >= bytes.length) {
        controller.close();
        controller.byobRequest?.respond(0);
        return;
      }
      controller.enqueue(bytes.slice(at, at + step));
      at += step;
    },
  });
}

/** A request's frame as its parts put on the pipe one after the other. */
function encodeRequest(request: Parameters<typeof requestParts>[0]): Uint8Array {
  return concatBytes(requestParts(request));
}

/** A reader over `bytes` that hands out at most `step` bytes a call, as a pipe may. */
function pipe(bytes: Uint8Array, step: number): ReadInto {
  let at = 0;
  return readerInto((into) => {
    if (at >= bytes.length) return Promise.resolve(null);
    const n = Math.min(step, into.length, bytes.length - at);
    into.set(bytes.subarray(at, at + n));
    at += n;
    return Promise.resolve(n);
  });
}

Deno.test("requests read from a pipe a few bytes at a time arrive whole, in order, then the end", async () => {
  const pdf = Uint8Array.from({ length: 3000 }, (_, i) => (i * 31) % 256);
  const first = encodeRequest({ id: 1, op: "extract", bytes: pdf, maxPages: 10, index: true });
  const second = encodeRequest({ id: 2, op: "index", text: "two" });
  const both = new Uint8Array(first.length + second.length);
  both.set(first);
  both.set(second, first.length);
  for (const step of [1, 7, 4096]) {
    const read = pipe(both, step);
    const a = await readFrame(read);
    const b = await readFrame(read);
    assert.ok(a && b, `step ${step}`);
    const one = decodeRequest(a.message, a.binary);
    assert.equal(one.op, "extract");
    assert.deepEqual(one.op === "extract" && [...one.bytes], [...pdf]);
    assert.equal(one.op === "extract" && one.bytes.buffer, a.binary.buffer, "the frame's own buffer, not a copy");
    assert.deepEqual(decodeRequest(b.message, b.binary), { id: 2, op: "index", text: "two" });
    assert.equal(await readFrame(read), undefined);
  }
});

Deno.test("a request cut short by the end of the pipe is the end, not a frame", async () => {
  const frame = encodeRequest({ id: 3, op: "index", text: "cut" });
  assert.equal(await readFrame(pipe(frame.subarray(0, frame.length - 1), 5)), undefined);
  assert.equal(await readFrame(pipe(frame.subarray(0, 4), 5)), undefined);
});
