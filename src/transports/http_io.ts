/**
 * Small HTTP helpers shared by the Streamable HTTP handler: JSON-RPC error responses, a request body
 * reader that enforces the size and nesting limits while streaming, and a response wrapper that reports
 * when the body is finished (so a session with a call in progress is never reaped as idle).
 */
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

/** Reads and parses a JSON body of at most `maxBytes` and MAX_JSON_DEPTH; never buffers more than the limit. */
export async function readJsonBody(request: Request, maxBytes: number): Promise<BodyResult> {
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
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        return tooLarge();
      }
      chunks.push(value);
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
