/** The extractor's pipe protocol: frames survive any chunking, index offsets arrive as sent. */
import assert from "node:assert/strict";
import { buildIndex } from "../../../src/sources/pdf/normalize.ts";
import {
  decodeReply,
  decodeRequest,
  encodeReply,
  FrameReader,
  readFrame,
  requestParts,
  type WorkerReply,
} from "../../../src/sources/pdf/worker_protocol.ts";

Deno.test("a reply with an index arrives whole through a pipe that delivers it a few bytes at a time", () => {
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
  const reader = new FrameReader();
  const received: WorkerReply[] = [];
  for (let at = 0; at < frame.length; at += 5) {
    for (const { message, binary } of reader.push(frame.slice(at, at + 5))) received.push(decodeReply(message, binary));
  }
  assert.equal(received.length, 1);
  const got = received[0] as Extract<WorkerReply, { kind: "done" }>;
  assert.deepEqual(got.pages, reply.pages);
  assert.equal(got.index?.text, reply.index!.text);
  assert.deepEqual([...got.index!.from], [...reply.index!.from]);
  assert.deepEqual([...got.index!.to], [...reply.index!.to]);
});

Deno.test("index offsets arrive exact whatever they hold (jumps back, repeats, values near 2^32)", () => {
  const from = Uint32Array.from([0, 1, 2, 2, 900, 5, 4_294_967_295]);
  const to = Uint32Array.from([1, 2, 3, 3, 901, 6, 0]);
  const reply: WorkerReply = {
    id: 1,
    kind: "indexed",
    index: { text: "abcdefg", from, to },
  };
  // Offsets at an odd byte position of the pipe's chunk: the reader copies them out.
  const frame = encodeReply(reply);
  const shifted = new Uint8Array(frame.length + 1);
  shifted.set(frame, 1);
  const got = decodeOne(shifted.subarray(1)) as Extract<WorkerReply, { kind: "indexed" }>;
  assert.deepEqual([...got.index.from], [...from]);
  assert.deepEqual([...got.index.to], [...to]);
});

Deno.test("a reply whose offsets do not match its text's length is an error, not garbage", () => {
  const frame = encodeReply({
    id: 1,
    kind: "indexed",
    index: { text: "abc", from: Uint32Array.of(0, 1, 2), to: Uint32Array.of(1, 2, 3) },
  });
  for (const { message, binary } of new FrameReader().push(frame)) {
    assert.throws(() => decodeReply(message, binary.subarray(0, binary.length - 4)), /truncated/);
  }
});

/** The one reply in `chunk`, decoded while its frame is valid (until the reader is asked for the next). */
function decodeOne(chunk: Uint8Array): WorkerReply {
  const replies: WorkerReply[] = [];
  for (const { message, binary } of new FrameReader().push(chunk)) replies.push(decodeReply(message, binary));
  assert.equal(replies.length, 1);
  return replies[0];
}

Deno.test("a frame's memory is given back once it is decoded, not at the next garbage collection", () => {
  const text = "x".repeat(1000);
  const first = encodeReply({ id: 1, kind: "indexed", index: buildIndex(text) });
  const second = encodeReply({ id: 2, kind: "indexed", index: buildIndex(text) });
  // Two chunks: the first frame is joined from both (the chunks are given back), the rest is the second frame.
  const a = first.slice(0, 100), b = new Uint8Array(first.length - 100 + second.length);
  b.set(first.subarray(100));
  b.set(second, first.length - 100);
  const reader = new FrameReader();
  const ids: number[] = [];
  for (const { message, binary } of reader.push(a)) ids.push(decodeReply(message, binary).id);
  const frames = reader.push(b);
  const one = frames.next().value!;
  assert.equal(decodeReply(one.message, one.binary).id, 1);
  assert.equal(a.buffer.byteLength, 0, "a chunk joined into a frame is given back");
  assert.equal(b.buffer.byteLength, 0, "so is the other");
  const two = frames.next().value!;
  assert.ok(one.binary.buffer.byteLength > 0, "kept while the second frame, not yet decoded, shares its memory");
  assert.equal(decodeReply(two.message, two.binary).id, 2);
  assert.equal(frames.next().done, true);
  assert.equal(two.binary.buffer.byteLength, 0, "given back once the last frame in it is decoded");
});

/** A request's frame as its parts put on the pipe one after the other. */
function encodeRequest(request: Parameters<typeof requestParts>[0]): Uint8Array {
  const parts = requestParts(request);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** A reader over `bytes` that hands out at most `step` bytes a call, as a pipe may. */
function pipe(bytes: Uint8Array, step: number): (into: Uint8Array) => Promise<number | null> {
  let at = 0;
  return (into) => {
    if (at >= bytes.length) return Promise.resolve(null);
    const n = Math.min(step, into.length, bytes.length - at);
    into.set(bytes.subarray(at, at + n));
    at += n;
    return Promise.resolve(n);
  };
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
