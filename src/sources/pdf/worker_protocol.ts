/**
 * Messages between the extraction pool (server), the extractor process (extract_child.ts) and the
 * extraction worker (pdf_worker.ts), plus the byte framing used on the process's pipes.
 */
import { concatBytes } from "../../render/png_file.ts";
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
  return concatBytes(frameParts(message, binary));
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
 * Reads into `into` (or the start of it) and answers the bytes read, as a view of the same memory, which a BYOB
 * stream reader hands back in a new ArrayBuffer; null at the end of the input.
 */
export type ReadInto = (into: Uint8Array) => Promise<Uint8Array | null>;

/** A `Deno.Reader`'s read as a {@link ReadInto}. */
export function readerInto(read: (into: Uint8Array) => Promise<number | null>): ReadInto {
  return async (into) => {
    const n = await read(into);
    return n === null ? null : into.subarray(0, n);
  };
}

/** A byte stream's BYOB reader as a {@link ReadInto} (the extractor's stdout, in the server). */
export function streamInto(stream: ReadableStream<Uint8Array>): ReadInto {
  const reader = stream.getReader({ mode: "byob" });
  return async (into) => {
    const { value, done } = await reader.read(into);
    return done || !value ? null : value;
  };
}

/**
 * The next frame, read with `read` straight into one buffer of the frame's size: no chunks to keep and join (the
 * server read the extractor's replies as a stream's 64 KiB chunks, joined, and left them in the allocator until the
 * next garbage collection, #36). Undefined when the input ends (a frame cut short included).
 */
export async function readFrame(read: ReadInto): Promise<{ message: unknown; binary: Uint8Array } | undefined> {
  const head = await readFull(read, 8);
  if (!head) return undefined;
  const view = new DataView(head.buffer, head.byteOffset, 8);
  const jsonLength = view.getUint32(0, true);
  const body = await readFull(read, jsonLength + view.getUint32(4, true));
  if (!body) return undefined;
  return {
    message: JSON.parse(new TextDecoder().decode(body.subarray(0, jsonLength))),
    binary: body.subarray(jsonLength),
  };
}

/** `length` bytes read into one new buffer; undefined when the input ends first. */
async function readFull(read: ReadInto, length: number): Promise<Uint8Array | undefined> {
  let buffer = new ArrayBuffer(length);
  for (let at = 0; at < length;) {
    const got = await read(new Uint8Array(buffer, at));
    if (!got || got.byteLength === 0) return undefined;
    buffer = got.buffer as ArrayBuffer;
    at += got.byteLength;
  }
  return new Uint8Array(buffer);
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

/** A request from a frame {@link readFrame} read: the frame's buffer is its own, so the document is not copied (#36). */
export function decodeRequest(message: unknown, binary: Uint8Array): WorkerRequest {
  const m = message as WorkerRequest;
  const withBytes = m.op === "extract" || m.op === "probe" || m.op === "render";
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
  const binary = concatBytes([bytesOf(from), bytesOf(to)]);
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
  // Copies: the offsets follow the JSON in the frame's buffer, at any byte alignment.
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
