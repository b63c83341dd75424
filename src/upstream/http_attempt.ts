/**
 * One attempt on the wire: fetch with a timeout (on the injected clock, so tests control it), the
 * caller's cancellation, and a streamed size cap. It never throws; it reports what happened so the
 * retry loop can decide. The timeout covers the body too: a server that trickles bytes forever times out.
 */
import { type Clock, TIMER_STOPPED } from "../core/clock.ts";
import { BodyBuffer } from "./body_buffer.ts";
import type { BuiltRequest } from "./request_builder.ts";
import type { Fetch } from "./types.ts";

/** A complete response as received (before any decision about its status). */
export interface RawResponse {
  status: number;
  headers: Headers;
  body: Uint8Array;
  /** Final URL after redirects, credentials included (redact before showing). */
  url: string;
}

export type AttemptFailureKind = "network" | "unreachable" | "timeout" | "too_large" | "aborted" | "permission";

export type AttemptResult =
  | { ok: true; response: RawResponse; ms: number }
  | { ok: false; kind: AttemptFailureKind; detail: string; cause?: unknown; ms: number };

export interface AttemptOptions {
  fetch: Fetch;
  clock: Clock;
  timeoutMs: number;
  maxBytes: number;
  signal?: AbortSignal;
  /** Called once the response head has arrived (before the body is read). */
  onAnswer?(): void;
  /** Called right before the request leaves (spacing counts from here). */
  onSend?(): void;
}

class TooLarge extends Error {}

export async function attemptFetch(built: BuiltRequest, options: AttemptOptions): Promise<AttemptResult> {
  const { clock, signal } = options;
  const started = clock.now();
  const ms = () => clock.now() - started;
  if (signal?.aborted) return { ok: false, kind: "aborted", detail: "cancelled", cause: signal.reason, ms: 0 };

  const controller = new AbortController();
  const stopTimer = new AbortController();
  let timedOut = false;
  clock.sleep(options.timeoutMs, stopTimer.signal).then(() => {
    timedOut = true;
    controller.abort(new DOMException(`no answer within ${options.timeoutMs} ms`, "TimeoutError"));
  }, () => {/* the attempt finished first */});
  const onAbort = () => controller.abort(signal!.reason);
  signal?.addEventListener("abort", onAbort, { once: true });

  try {
    const request = new Request(built.url, {
      method: built.method,
      headers: built.headers,
      body: built.body,
      // Redirects come back as they are: the retry loop vets and follows them hop by hop (redirects.ts).
      redirect: "manual",
      signal: controller.signal,
    });
    options.onSend?.();
    const response = await abortable(options.fetch(request), controller.signal);
    options.onAnswer?.();
    const body = await readCapped(response, options.maxBytes, controller.signal);
    return {
      ok: true,
      response: { status: response.status, headers: response.headers, body, url: response.url || built.url },
      ms: ms(),
    };
  } catch (cause) {
    if (cause instanceof TooLarge) return { ok: false, kind: "too_large", detail: cause.message, ms: ms() };
    if (timedOut) return { ok: false, kind: "timeout", detail: `no answer within ${options.timeoutMs} ms`, ms: ms() };
    if (signal?.aborted) return { ok: false, kind: "aborted", detail: "cancelled", cause, ms: ms() };
    if (deniedByPermissions(cause)) return { ok: false, kind: "permission", detail: networkDetail(cause), ms: ms() };
    const unreachable = unreachableReason(networkDetail(cause));
    if (unreachable) return { ok: false, kind: "unreachable", detail: unreachable, cause, ms: ms() };
    return { ok: false, kind: "network", detail: networkDetail(cause), cause, ms: ms() };
  } finally {
    stopTimer.abort(TIMER_STOPPED);
    signal?.removeEventListener("abort", onAbort);
  }
}

/**
 * Reads the body, failing as soon as it passes `maxBytes` (a declared Content-Length over the cap fails
 * before reading anything). Streaming keeps a hostile or mistaken 2 GB answer from reaching memory; the
 * cap counts decoded bytes, and what is held is exactly what was read (BodyBuffer), so a compressed bomb
 * costs no more than a plain body of the same size.
 */
async function readCapped(response: Response, maxBytes: number, signal: AbortSignal): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw new TooLarge(`declared ${declared} bytes, limit ${maxBytes}`);
  }
  if (!response.body) return new Uint8Array();
  const buffer = new BodyBuffer(maxBytes);
  const take = (chunk: Uint8Array) => {
    if (buffer.size + chunk.byteLength > maxBytes || !buffer.fits(chunk.byteLength)) {
      throw new TooLarge(`more than ${maxBytes} bytes`);
    }
    buffer.append(chunk);
  };
  // A byte stream (a network body) is read into one scratch buffer of ours, reused for every read: no
  // buffer per read for the heap to fragment. Any other stream's chunks are copied, never kept.
  const byob = byobReader(response.body);
  const reader = byob ?? response.body.getReader();
  try {
    if (byob) {
      let scratch = new Uint8Array(SCRATCH_BYTES);
      for (;;) {
        const { done, value } = await abortable(byob.read(scratch), signal);
        if (done || !value) break;
        take(value);
        scratch = new Uint8Array(value.buffer as ArrayBuffer);
      }
    } else {
      const chunks = reader as ReadableStreamDefaultReader<Uint8Array>;
      for (;;) {
        const { done, value } = await abortable(chunks.read(), signal);
        if (done) break;
        take(value);
      }
    }
  } catch (error) {
    buffer.release();
    await reader.cancel().catch(() => {});
    throw error;
  }
  return buffer.take();
}

/** Bytes asked for per read of a byte stream. */
const SCRATCH_BYTES = 64 * 1024;

/** A BYOB reader when the body is a byte stream (Deno's network bodies are), else undefined. */
function byobReader(body: ReadableStream<Uint8Array>): ReadableStreamBYOBReader | undefined {
  try {
    return body.getReader({ mode: "byob" });
  } catch {
    return undefined;
  }
}

/** Settles with `promise`, or rejects with the signal's reason as soon as it aborts (whatever `promise` does). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** Deno refused the connection (fetch wraps NotCapable in a TypeError): retrying can never help. */
function deniedByPermissions(cause: unknown): boolean {
  for (let e = cause; e instanceof Error; e = e.cause) {
    if (e instanceof Deno.errors.NotCapable || e instanceof Deno.errors.PermissionDenied) return true;
  }
  return false;
}

/** Connection failures before any byte was exchanged, in words: the host cannot be reached at all. */
const UNREACHABLE: readonly [RegExp, string][] = [
  [
    /dns error|failed to lookup address|name or service not known|nodename nor servname|no address associated/i,
    "DNS lookup failed",
  ],
  [/connection refused|os error 111\b|ECONNREFUSED/i, "connection refused"],
  [/network is unreachable|os error 101\b/i, "network unreachable"],
  [/no route to host|os error 113\b|host is unreachable/i, "no route to host"],
  [/requests to port \d+ are blocked/i, "port blocked by the runtime"],
  [/certificate|tls handshake|invalid peer/i, "TLS handshake failed"],
];

/**
 * Why a host cannot be reached (DNS, refused, no route, TLS), or undefined for failures that a second
 * attempt may get past (a reset or a cut-off body).
 *
 * @example unreachableReason("client error (Connect): tcp connect error: Connection refused (os error 111)") // "connection refused"
 */
export function unreachableReason(detail: string): string | undefined {
  return UNREACHABLE.find(([pattern]) => pattern.test(detail))?.[1];
}

function networkDetail(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner = cause.cause instanceof Error ? `: ${cause.cause.message}` : "";
  return `${cause.message}${inner}`;
}
