/**
 * Messages between the extraction pool (main thread) and pdf_worker.ts. Types only, imported with
 * `import type` (erased), so they add nothing to the worker's module graph.
 */
import type { SearchIndex } from "./normalize.ts";
import type { PdfFailure } from "./types.ts";

export type WorkerRequest =
  | {
    id: number;
    /** `count` opens the document and reports its page count without extracting text. */
    op: "extract" | "count";
    bytes: Uint8Array;
    maxPages: number;
    /** Extract only pages first..last (1-based, inclusive); the whole document when absent. */
    first?: number;
    last?: number;
  }
  /** Builds the search index of a document's text off the main thread. */
  | { id: number; op: "index"; text: string };

export type WorkerReply =
  | { id: number; kind: "progress"; done: number; total: number }
  /** `pages` holds the requested range only (all pages when no range was given). */
  | { id: number; kind: "done"; pageCount: number; pages: string[] }
  | { id: number; kind: "indexed"; index: SearchIndex }
  | { id: number; kind: "failed"; reason: PdfFailure; message: string; pageCount?: number };

/** The replies that end a job. */
export type FinalReply = Extract<WorkerReply, { kind: "done" | "indexed" }>;
