/** The extractor's pipe protocol: frames survive any chunking, index offsets survive packing. */
import assert from "node:assert/strict";
import { buildIndex } from "../../../src/sources/pdf/normalize.ts";
import {
  decodeReply,
  decodeRequest,
  encodeReply,
  encodeRequest,
  FrameReader,
  packOffsets,
  readFrame,
  unpackOffsets,
  type WorkerReply,
} from "../../../src/sources/pdf/worker_protocol.ts";

Deno.test("packed offsets round-trip: runs of +1, repeats, jumps back and values near 2^32", () => {
  const values = Uint32Array.from([0, 1, 2, 2, 2, 3, 900, 901, 5, 4_294_967_295, 0, 128, 129, 16_384]);
  const packed = packOffsets(values);
  assert.deepEqual([...unpackOffsets(packed, values.length)], [...values]);
  const climbing = Uint32Array.from({ length: 1000 }, (_, i) => i);
  assert.equal(packOffsets(climbing).length, 1000, "a climbing run costs one byte per offset");
});

Deno.test("truncated packed offsets are an error, not garbage", () => {
  const packed = packOffsets(Uint32Array.from([1, 300, 70_000]));
  assert.throws(() => unpackOffsets(packed.subarray(0, packed.length - 1), 3), /truncated/);
});

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
  const parts = [
    ...encodeRequest({ id: 1, op: "extract", bytes: pdf, maxPages: 10, index: true }),
    ...encodeRequest({ id: 2, op: "index", text: "two" }),
  ];
  assert.equal(parts[1], pdf, "the document's bytes are sent as they are, not copied into the frame");
  const both = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (both.set(p, at), at + p.length), 0);
  for (const step of [1, 7, 4096]) {
    const read = pipe(both, step);
    const a = await readFrame(read);
    const b = await readFrame(read);
    assert.ok(a && b, `step ${step}`);
    const one = decodeRequest(a.message, a.binary);
    assert.equal(one.op, "extract");
    assert.deepEqual(one.op === "extract" && [...one.bytes], [...pdf]);
    assert.deepEqual(decodeRequest(b.message, b.binary), { id: 2, op: "index", text: "two" });
    assert.equal(await readFrame(read), undefined);
  }
});

Deno.test("a request cut short by the end of the pipe is the end, not a frame", async () => {
  const [frame] = encodeRequest({ id: 3, op: "index", text: "cut" });
  assert.equal(await readFrame(pipe(frame.subarray(0, frame.length - 1), 5)), undefined);
  assert.equal(await readFrame(pipe(frame.subarray(0, 4), 5)), undefined);
});
