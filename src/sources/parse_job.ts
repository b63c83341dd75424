/**
 * A source's parse function, named so that a worker thread can run it too (parse_off_thread.ts): the
 * descriptor lives beside the function, the worker finds it by name in parse_jobs.ts.
 */

/** A pure body → record function with its name, the upstream it parses for, and the errors it means. */
export interface ParseJob<A extends unknown[], R> {
  /** Unique among PARSE_JOBS (parse_jobs.ts); what the worker is told to run. */
  readonly name: string;
  /** The upstream whose bodies it parses: named in the error when the worker itself fails. */
  readonly upstream: string;
  /** The source's own parse function: the same on both threads. Its result must be structured-cloneable. */
  readonly parse: (text: string, url: string, ...args: A) => R;
  /**
   * Error classes of its own (beside UpstreamError and ToolError) that callers test with `instanceof`:
   * an error of one of these names thrown in the worker is rebuilt as that class.
   */
  readonly errors?: readonly (new (message: string) => Error)[];
}

/** @example export const geneRecordJob = parseJob("gene-record", "ncbi-eutils", (xml, url, id: string) => …) */
export function parseJob<A extends unknown[], R>(
  name: string,
  upstream: string,
  parse: (text: string, url: string, ...args: A) => R,
  errors?: readonly (new (message: string) => Error)[],
): ParseJob<A, R> {
  return { name, upstream, parse, ...(errors ? { errors } : {}) };
}
