/**
 * Messages between the extraction pool (server), the extractor process (extract_child.ts) and the pdf.js
 * worker inside it (pdf_worker.ts), plus the byte framing used on the process's pipes.
 */
import type { SearchIndex } from "./normalize.ts";
import type { PdfFailure, UnreadablePage } from "./types.ts";

export type WorkerRequest =
  | {
    id: number;
    /** `probe` opens the document and walks its page tree (no content streams) for a cheap verdict. */
    op: "extract" | "probe";
    bytes: Uint8Array;
    maxPages: number;
    /**
     * Extract only part `part` (0-based) of `parts` contiguous page ranges, so two processes can share
     * a document without first asking for its page count. Absent: every page.
     */
    part?: number;
    parts?: number;
    /** Below this many pages part 0 takes every page and the other parts none. */
    splitMinPages?: number;
    /** Also build the search index of the extracted range (its pages joined by a form feed). */
    index?: boolean;
  }
  /** Builds the search index of a document's text off the server's thread. */
  | { id: number; op: "index"; text: string }
  /**
   * Runs pdf.js once on `bytes` (a small real PDF; a tiny built-in one when absent), so the first real
   * extraction meets code the JIT has compiled already (fonts above all): it halves that extraction.
   */
  | { id: number; op: "warm"; bytes?: Uint8Array };

export type WorkerReply =
  /** `done` pages of this job's range so far; `total` the document's page count. */
  | { id: number; kind: "progress"; done: number; total: number }
  /** `pages` holds pages first..first+pages.length-1 (1-based); unreadable pages are empty strings. */
  | {
    id: number;
    kind: "done";
    pageCount: number;
    first: number;
    pages: string[];
    unreadable: UnreadablePage[];
    index?: SearchIndex;
  }
  | { id: number; kind: "indexed"; index: SearchIndex }
  | { id: number; kind: "failed"; reason: PdfFailure; message: string; pageCount?: number };

/** The replies that end a job. */
export type FinalReply = Extract<WorkerReply, { kind: "done" | "indexed" }>;

/** The pages of part `part` of `parts` contiguous ranges (see WorkerRequest), as [first, last]. */
export function pageRange(
  pageCount: number,
  request: { part?: number; parts?: number; splitMinPages?: number },
): [number, number] {
  const parts = request.parts ?? 1;
  const part = request.part ?? 0;
  if (parts <= 1 || pageCount < (request.splitMinPages ?? 0)) return part === 0 ? [1, pageCount] : [1, 0];
  const size = Math.ceil(pageCount / parts);
  return [part * size + 1, Math.min(pageCount, (part + 1) * size)];
}

/**
 * One message on a pipe: uint32 LE length of the JSON part, uint32 LE length of the binary part, the
 * JSON (UTF-8), the binary part. Document bytes and index arrays travel in the binary part.
 */
export function encodeFrame(message: unknown, binary: Uint8Array = new Uint8Array(0)): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(message));
  const out = new Uint8Array(8 + json.length + binary.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, json.length, true);
  view.setUint32(4, binary.length, true);
  out.set(json, 8);
  out.set(binary, 8 + json.length);
  return out;
}

/** Splits a byte stream into frames; feed it chunks, it yields complete frames. */
export class FrameReader {
  #chunks: Uint8Array[] = [];
  #buffered = 0;

  *push(chunk: Uint8Array): Generator<{ message: unknown; binary: Uint8Array }> {
    this.#chunks.push(chunk);
    this.#buffered += chunk.length;
    for (;;) {
      if (this.#buffered < 8) return;
      const head = this.#peek(8);
      const view = new DataView(head.buffer, head.byteOffset, 8);
      const jsonLength = view.getUint32(0, true);
      const binLength = view.getUint32(4, true);
      const total = 8 + jsonLength + binLength;
      if (this.#buffered < total) return;
      const frame = this.#take(total);
      const message = JSON.parse(new TextDecoder().decode(frame.subarray(8, 8 + jsonLength)));
      yield { message, binary: frame.subarray(8 + jsonLength) };
    }
  }

  #peek(n: number): Uint8Array {
    if (this.#chunks[0].length >= n) return this.#chunks[0];
    this.#chunks = [concat(this.#chunks, this.#buffered)];
    return this.#chunks[0];
  }

  #take(n: number): Uint8Array {
    const all = this.#chunks.length === 1 ? this.#chunks[0] : concat(this.#chunks, this.#buffered);
    const frame = all.slice(0, n);
    const rest = all.subarray(n);
    this.#chunks = rest.length ? [rest] : [];
    this.#buffered = rest.length;
    return frame;
  }
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** A request as a frame: the document bytes go in the binary part. */
export function encodeRequest(request: WorkerRequest): Uint8Array {
  if (request.op === "extract" || request.op === "probe" || (request.op === "warm" && request.bytes)) {
    const { bytes, ...rest } = request;
    return encodeFrame(rest, bytes);
  }
  return encodeFrame(request);
}

export function decodeRequest(message: unknown, binary: Uint8Array): WorkerRequest {
  const m = message as WorkerRequest;
  const withBytes = m.op === "extract" || m.op === "probe" || (m.op === "warm" && binary.length > 0);
  return withBytes ? { ...m, bytes: binary.slice() } as WorkerRequest : m;
}

/** A reply as a frame: an index's offset arrays go in the binary part, its folded text in the JSON. */
export function encodeReply(reply: WorkerReply): Uint8Array {
  if (!("index" in reply) || !reply.index) return encodeFrame(reply);
  const { from, to, text } = reply.index;
  const binary = new Uint8Array(from.byteLength + to.byteLength);
  binary.set(new Uint8Array(from.buffer, from.byteOffset, from.byteLength), 0);
  binary.set(new Uint8Array(to.buffer, to.byteOffset, to.byteLength), from.byteLength);
  return encodeFrame({ ...reply, index: undefined, indexText: text }, binary);
}

export function decodeReply(message: unknown, binary: Uint8Array): WorkerReply {
  const { indexText, ...reply } = message as WorkerReply & { indexText?: string };
  if (indexText === undefined) return reply as WorkerReply;
  const units = indexText.length;
  const arrays = binary.slice().buffer;
  const index = {
    text: indexText,
    from: new Uint32Array(arrays, 0, units),
    to: new Uint32Array(arrays, 4 * units, units),
  };
  return { ...reply, index } as WorkerReply;
}
