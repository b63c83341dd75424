/**
 * Messages between the extraction pool (server), the extractor process (extract_child.ts) and the
 * extraction worker (pdf_worker.ts), plus the byte framing used on the process's pipes.
 */
import type { SearchIndex } from "./normalize.ts";
import { release } from "./release.ts";
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
    /**
     * The file declares images (text_layer.ts hasImageXObject): a thin text is then a scan's, which pdf.js would
     * only read again into the same few characters (jobs.ts), so it is not asked.
     */
    images?: boolean;
    /**
     * Read with this engine only, and answer what it read: the extractor process hands a job PDFium could not
     * read on its main thread to pdf.js in its worker (extract_child.ts).
     */
    engine?: "pdf.js";
  }
  /** Builds the search index of a document's text off the server's thread. */
  | { id: number; op: "index"; text: string }
  /** Renders one page (or a region of it) to a PNG: pdfium_render.ts. */
  | RenderRequest;

/** A page (1-based) or a region of it (fractions of the page, top-left origin) drawn at most `maxSide` px a side. */
export interface RenderRequest {
  id: number;
  op: "render";
  bytes: Uint8Array;
  maxPages: number;
  page: number;
  /** [left, top, right, bottom] as fractions of the page's width and height; absent: the whole page. */
  region?: [number, number, number, number];
  maxSide: number;
  /** A PNG larger than this fails as too_large instead of being sent. */
  maxPngBytes: number;
}

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
    /** The engine that read these pages. */
    engine?: TextEngine;
  }
  | { id: number; kind: "indexed"; index: SearchIndex }
  /** The PNG of a render request, with the page's text. */
  | {
    id: number;
    kind: "rendered";
    pageCount: number;
    width: number;
    height: number;
    png: Uint8Array;
    text: string;
  }
  | { id: number; kind: "failed"; reason: PdfFailure; message: string; pageCount?: number };

/** The text engines of jobs.ts: PDFium first, pdf.js where PDFium cannot read or reads badly. */
export type TextEngine = "pdfium" | "pdf.js";

/** A request for pages, as an engine sees it. */
export type PageJob = Extract<WorkerRequest, { op: "extract" | "probe" }>;

/** Reports pages done so far and the document's page count. */
export type Progress = (done: number, total: number) => void;

/** What an engine makes of a page job, before the worker adds the job's id, its engine and the index. */
export type EngineResult =
  | Omit<Extract<WorkerReply, { kind: "done" }>, "id" | "index" | "engine">
  | Omit<Extract<WorkerReply, { kind: "failed" }>, "id">;

/** The replies that end a job. */
export type FinalReply = Extract<WorkerReply, { kind: "done" | "indexed" | "rendered" }>;

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
  const [head] = frameParts(message, binary);
  const out = new Uint8Array(head.length + binary.length);
  out.set(head, 0);
  out.set(binary, head.length);
  return out;
}

/** A frame as its two parts, written one after the other: its head (lengths and JSON) and `binary` itself. */
function frameParts(message: unknown, binary: Uint8Array): [Uint8Array, Uint8Array] {
  const json = new TextEncoder().encode(JSON.stringify(message));
  const head = new Uint8Array(8 + json.length);
  const view = new DataView(head.buffer);
  view.setUint32(0, json.length, true);
  view.setUint32(4, binary.length, true);
  head.set(json, 8);
  return [head, binary];
}

/**
 * The next frame, read with `read` (a `Deno.Reader`'s read) straight into one buffer of the frame's size: no
 * stream, no chunks to keep and join. Undefined when the input ends (a frame cut short included).
 */
export async function readFrame(
  read: (into: Uint8Array) => Promise<number | null>,
): Promise<{ message: unknown; binary: Uint8Array } | undefined> {
  const head = new Uint8Array(8);
  if (!await readFull(read, head)) return undefined;
  const view = new DataView(head.buffer);
  const jsonLength = view.getUint32(0, true);
  const body = new Uint8Array(jsonLength + view.getUint32(4, true));
  if (!await readFull(read, body)) return undefined;
  return {
    message: JSON.parse(new TextDecoder().decode(body.subarray(0, jsonLength))),
    binary: body.subarray(jsonLength),
  };
}

/** Fills `into`; false when the input ends first. */
async function readFull(read: (into: Uint8Array) => Promise<number | null>, into: Uint8Array): Promise<boolean> {
  for (let at = 0; at < into.length;) {
    const n = await read(into.subarray(at));
    if (n === null) return false;
    at += n;
  }
  return true;
}

/** Splits a byte stream into frames; feed it chunks, it yields complete frames. */
export class FrameReader {
  #chunks: Uint8Array[] = [];
  #buffered = 0;

  /**
   * Takes `chunk` over (whoever pushes a chunk no longer uses it). A yielded frame's bytes are valid until the next
   * frame is asked for: consumers copy what they keep (decodeReply), and the frame's memory is then
   * given back at once (see {@link release}) unless the rest of the stream still shares it.
   */
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
      if (this.#chunks[0]?.buffer !== frame.buffer) release(frame);
    }
  }

  #peek(n: number): Uint8Array {
    if (this.#chunks[0].length >= n) return this.#chunks[0];
    this.#chunks = [concat(this.#chunks, this.#buffered)];
    return this.#chunks[0];
  }

  #take(n: number): Uint8Array {
    const all = this.#chunks.length === 1 ? this.#chunks[0] : concat(this.#chunks, this.#buffered);
    // A view, not a copy: chunks are never reused by the stream, and whoever keeps a part (a PNG) copies it.
    const frame = all.subarray(0, n);
    const rest = all.subarray(n);
    this.#chunks = rest.length ? [rest] : [];
    this.#buffered = rest.length;
    return frame;
  }
}

/** The chunks joined into one array; the chunks' memory is given back (they are the reader's). */
function concat(chunks: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
    release(c);
  }
  return out;
}

/**
 * A request as a frame, in parts to write one after the other: the document's bytes are not copied into a frame
 * of their own (megabytes, held until the next garbage collection).
 */
export function requestParts(request: WorkerRequest): Uint8Array[] {
  if (request.op === "extract" || request.op === "probe" || request.op === "render") {
    const { bytes, ...rest } = request;
    return frameParts(rest, bytes);
  }
  return [encodeFrame(request)];
}

/** A request from a frame {@link readFrame} read (its buffer is the request's own: the document is not copied). */
export function decodeRequest(message: unknown, binary: Uint8Array): WorkerRequest {
  const m = message as WorkerRequest;
  const withBytes = m.op === "extract" || m.op === "probe" || m.op === "render";
  // readFrame gives each frame a buffer of its own: the document is not copied a second time (#36).
  return withBytes ? { ...m, bytes: binary } as WorkerRequest : m;
}

/**
 * A reply as a frame: an index's offset arrays go in the binary part as they are in memory (two Uint32Arrays in
 * the machine's byte order: both ends run on it), its folded text in the JSON. Raw rather than packed into varints (a quarter of the bytes):
 * unpacking looped over every offset in the server, ~10⁵ per paper, which warmed the loop up to V8's optimising
 * compiler on a server's first search, whose first use costs the process ~3 MiB of resident memory for good
 * (#36); a copy is native. The pipe carries ~0.6 MB more per paper, a few more reads of its 64 KiB.
 */
export function encodeReply(reply: WorkerReply): Uint8Array {
  if (reply.kind === "rendered") {
    const { png, ...rest } = reply;
    return encodeFrame(rest, png);
  }
  if (!("index" in reply) || !reply.index) return encodeFrame(reply);
  const { from, to, text } = reply.index;
  const binary = new Uint8Array(from.byteLength + to.byteLength);
  binary.set(bytesOf(from), 0);
  binary.set(bytesOf(to), from.byteLength);
  return encodeFrame({ ...reply, index: undefined, indexText: text, fromBytes: from.byteLength }, binary);
}

export function decodeReply(message: unknown, binary: Uint8Array): WorkerReply {
  if ((message as WorkerReply).kind === "rendered") {
    return { ...(message as object), png: binary.slice() } as WorkerReply;
  }
  const { indexText, fromBytes, ...reply } = message as WorkerReply & { indexText?: string; fromBytes?: number };
  if (indexText === undefined || fromBytes === undefined) return reply as WorkerReply;
  const units = indexText.length;
  if (fromBytes !== 4 * units || binary.byteLength !== 8 * units) {
    throw new Error("truncated offsets in an extractor reply");
  }
  // Copies: the frame is a view of the pipe's chunks, at any byte alignment.
  const index = {
    text: indexText,
    from: new Uint32Array(binary.slice(0, fromBytes).buffer),
    to: new Uint32Array(binary.slice(fromBytes).buffer),
  };
  return { ...reply, index } as WorkerReply;
}

function bytesOf(values: Uint32Array): Uint8Array {
  return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
}
