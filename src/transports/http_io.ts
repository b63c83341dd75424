/**
 * Small HTTP helpers shared by the Streamable HTTP handler: JSON-RPC error responses, a request body
 * reader that enforces the size and nesting limits while streaming, and a response wrapper that reports
 * when the body is finished (so a session with a call in progress is never reaped as idle).
 */
import type { Clock } from "../core/clock.ts";
import { MAX_JSON_DEPTH, nestsDeeperThan, recoverId } from "./json_limits.ts";

/**
 * A JSON-RPC error response; `id: null` (as the transport spec uses for HTTP-level refusals) unless the
 * request's id is known.
 */
export function jsonRpcError(
  status: number,
  code: number,
  message: string,
  headers: HeadersInit = {},
  id: string | number | null = null,
): Response {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id }, { status, headers });
}

export type BodyResult = { ok: true; body: unknown } | { ok: false; response: Response };

/** How long a whole request body may take to arrive, unless the handler is told otherwise. */
export const BODY_DEADLINE_MS = 10_000;

/**
 * Reads and parses a JSON body of at most `maxBytes` and MAX_JSON_DEPTH; never buffers more than the limit.
 * The whole body must arrive within `deadline.ms` (a deadline, not an idle timeout: a body trickling in at
 * one byte a second would keep an idle timer alive forever); a late one is answered 408 with
 * `Connection: close`. (Deno.serve still keeps the socket until the client goes: only a reverse proxy in
 * front can close it; see README.)
 */
export async function readJsonBody(
  request: Request,
  maxBytes: number,
  deadline?: { ms: number; clock: Clock },
): Promise<BodyResult> {
  const tooLarge = () => ({
    ok: false as const,
    response: jsonRpcError(413, -32000, `Request body too large: the limit is ${maxBytes} bytes (MCP_MAX_BODY_BYTES).`),
  });
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) return tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    const stop = new AbortController();
    let late = false;
    deadline?.clock.sleep(deadline.ms, stop.signal).then(() => {
      late = true;
      reader.cancel().catch(() => {});
    }, () => {/* the body arrived in time */});
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (late) {
          const message = `Request body not received within ${deadline!.ms / 1000} s; send the whole body at once.`;
          return { ok: false, response: jsonRpcError(408, -32000, message, { connection: "close" }) };
        }
        if (done) break;
        size += value.byteLength;
        if (size > maxBytes) {
          await reader.cancel().catch(() => {});
          return tooLarge();
        }
        chunks.push(value);
      }
    } finally {
      stop.abort();
    }
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  if (nestsDeeperThan(bytes)) {
    const message = `Parse error: the JSON nests deeper than ${MAX_JSON_DEPTH} levels of arrays and objects.`;
    return { ok: false, response: jsonRpcError(400, -32700, message, {}, recoverId(bytes) ?? null) };
  }
  try {
    return { ok: true, body: JSON.parse(new TextDecoder().decode(bytes)) };
  } catch {
    return { ok: false, response: jsonRpcError(400, -32700, "Parse error: the body is not valid JSON.") };
  }
}

/**
 * Returns a response whose body calls `onDone` exactly once: when it has been read to the end, fails,
 * or is cancelled (the client went away). Responses without a body call it at once.
 */
export function trackBody(response: Response, onDone: () => void): Response {
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    onDone();
  };
  if (!response.body) {
    finish();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await reader.read();
        if (done) {
          finish();
          controller.close();
        } else {
          controller.enqueue(value);
        }
      } catch (error) {
        finish();
        controller.error(error);
      }
    },
    async cancel(reason) {
      finish();
      await reader.cancel(reason).catch(() => {});
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
