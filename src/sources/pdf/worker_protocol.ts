/**
 * Messages between the extraction pool (main thread) and pdf_worker.ts. Types only: the worker imports
 * this file with `import type`, which is erased, so the worker's module graph stays one local file
 * (Deno needs read permission for every local module a worker loads).
 */
import type { PdfFailure } from "./types.ts";

export interface WorkerRequest {
  id: number;
  /** `count` opens the document and reports its page count without extracting text. */
  op: "extract" | "count";
  bytes: Uint8Array;
  maxPages: number;
  /** Extract only pages first..last (1-based, inclusive); the whole document when absent. */
  first?: number;
  last?: number;
}

export type WorkerReply =
  | { id: number; kind: "progress"; done: number; total: number }
  /** `pages` holds the requested range only (all pages when no range was given). */
  | { id: number; kind: "done"; pageCount: number; pages: string[] }
  | { id: number; kind: "failed"; reason: PdfFailure; message: string; pageCount?: number };
