/**
 * Messages between the server's thread and the parse worker (parse_off_thread.ts ↔ parse_worker.ts), and
 * how an error crosses between them: structured clone keeps an error's message but not its class, so
 * the fields callers branch on (UpstreamError kind/status, ToolError code/hint) travel as plain data.
 */
import { ToolError, UpstreamError, type UpstreamErrorKind } from "../core/errors.ts";
import type { ParseJob } from "./parse_job.ts";

/** One body to parse with the job of that name. `body` is a copy: the worker decodes it. */
export interface ParseRequest {
  id: number;
  job: string;
  body: Uint8Array;
  url: string;
  args: unknown[];
}

export type ParseReply =
  | { ready: true }
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: SentError };

/** An error as plain data. */
export interface SentError {
  name: string;
  message: string;
  kind?: UpstreamErrorKind;
  upstream?: string;
  url?: string;
  status?: number;
  retryAfterMs?: number;
  code?: ToolError["code"];
  recoveryHint?: string;
  invalidInput?: unknown;
}

/** What the worker posts for a thrown value. */
export function sendError(error: unknown): SentError {
  if (error instanceof UpstreamError) {
    const { name, message, kind, upstream, url, status, retryAfterMs } = error;
    return { name, message, kind, upstream, url, status, retryAfterMs };
  }
  if (error instanceof ToolError) {
    const { name, message, code, recoveryHint, invalidInput } = error;
    return { name, message, code, recoveryHint, invalidInput };
  }
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: "Error", message: String(error) };
}

/**
 * The error the caller sees: the same class as the inline parse throws for UpstreamError, ToolError and
 * the job's own classes; anything else (a stack overflow, a bug) becomes an UpstreamError of kind "parse"
 * naming it, as a body that could not be read.
 */
export function reviveError(sent: SentError, job: ParseJob<never[], unknown>, url: string): Error {
  if (sent.name === "UpstreamError" && sent.kind && sent.upstream !== undefined && sent.url !== undefined) {
    const { kind, upstream, url, message, status, retryAfterMs } = sent;
    return new UpstreamError({ kind, upstream, url, message, status, retryAfterMs });
  }
  if (sent.name === "ToolError" && sent.code && sent.recoveryHint !== undefined) {
    return new ToolError(sent.code, sent.message, sent.recoveryHint, { invalidInput: sent.invalidInput });
  }
  // Compared by instance name: a bundler may rename the class itself.
  const own = job.errors?.find((cls) => new cls("").name === sent.name);
  if (own) return new own(sent.message);
  return unreadable(job, url, `${sent.name}: ${sent.message}`);
}

/** The UpstreamError for a body whose parse failed for a reason of its own (the worker ended, a bug). */
export function unreadable(job: ParseJob<never[], unknown>, url: string, why: string): UpstreamError {
  return new UpstreamError({
    kind: "parse",
    upstream: job.upstream,
    url,
    message: `the body from ${url} could not be parsed (${why})`,
  });
}
