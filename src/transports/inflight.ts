/**
 * The JSON-RPC requests a Streamable HTTP transport has received and not yet answered. When a session
 * closes before they finish (shutdown after the grace period, an expired token), each gets a JSON-RPC
 * error on its own response stream instead of a stream that just ends: the client learns the call is
 * lost and can retry it. Any transport fits: a 2025 session's, a 2026-07-28 request's (modern_http.ts).
 */
import type { JSONRPCMessage, Transport } from "../sdk.ts";

type RequestId = string | number;
type Send = Transport["send"];

export class Inflight {
  readonly #ids = new Set<RequestId>();
  readonly #send: Send;

  /** Wraps `transport.send`, so every response or error the server sends settles its request. */
  constructor(transport: Transport) {
    const send: Send = transport.send.bind(transport);
    this.#send = send;
    transport.send = (message, options) => {
      if (isResponse(message)) this.#ids.delete(message.id);
      return send(message, options);
    };
  }

  get size(): number {
    return this.#ids.size;
  }

  /** Records the requests of a POST body (one message or a batch); returns their ids. */
  add(body: unknown): RequestId[] {
    const ids = (Array.isArray(body) ? body : [body]).flatMap(requestId);
    for (const id of ids) this.#ids.add(id);
    return ids;
  }

  /** Forgets requests whose response stream is gone: nothing can be delivered to them any more. */
  settle(ids: readonly RequestId[]): void {
    for (const id of ids) this.#ids.delete(id);
  }

  /** Answers every unanswered request with a JSON-RPC error. */
  async fail(code: number, message: string): Promise<void> {
    const ids = [...this.#ids];
    this.#ids.clear();
    await Promise.all(ids.map((id) => this.#send({ jsonrpc: "2.0", id, error: { code, message } }).catch(() => {})));
  }
}

function requestId(message: unknown): RequestId[] {
  if (!message || typeof message !== "object") return [];
  const { method, id } = message as { method?: unknown; id?: unknown };
  return typeof method === "string" && (typeof id === "string" || typeof id === "number") ? [id] : [];
}

function isResponse(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } {
  return "id" in message && !("method" in message) && ("result" in message || "error" in message);
}
