/**
 * A minimal MCP client over Streamable HTTP, written on raw fetch so the load generator costs as little
 * as possible next to the server it measures: initialize, notifications/initialized, tools/call (JSON or
 * an SSE stream with one message), DELETE. Loopback only: the base URL is checked.
 */

const PROTOCOL = "2025-06-18";
const LOOPBACK = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+$/;

export interface CallResult {
  ms: number;
  ok: boolean;
  /** HTTP status, JSON-RPC error or tool error code, when not ok. */
  error?: string;
  /** structuredContent of the tool result, when there was one. */
  structured?: Record<string, unknown>;
}

export class McpHttpSession {
  #nextId = 2;
  private constructor(readonly base: string, readonly id: string) {}

  /** Opens a session (initialize + initialized); throws with the status when the server refuses. */
  static async open(base: string): Promise<McpHttpSession> {
    if (!LOOPBACK.test(base)) throw new Error(`load tests only talk to loopback, not ${base}`);
    const response = await post(base, undefined, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: "load-test", version: "1" } },
    });
    const id = response.headers.get("mcp-session-id");
    const body = await readMessage(response);
    if (!response.ok || !id || !body || "error" in body) {
      throw new Error(`initialize failed: HTTP ${response.status} ${JSON.stringify(body)?.slice(0, 200)}`);
    }
    const session = new McpHttpSession(base, id);
    const ack = await post(base, id, { jsonrpc: "2.0", method: "notifications/initialized" });
    await ack.body?.cancel();
    return session;
  }

  /** One tools/call, timed from request to the end of the answer. */
  async call(name: string, args: unknown): Promise<CallResult> {
    const started = performance.now();
    try {
      const response = await post(this.base, this.id, {
        jsonrpc: "2.0",
        id: this.#nextId++,
        method: "tools/call",
        params: { name, arguments: args },
      });
      const message = await readMessage(response);
      const ms = performance.now() - started;
      if (!response.ok) return { ms, ok: false, error: `HTTP ${response.status}` };
      if (!message) return { ms, ok: false, error: "no JSON-RPC message in the answer" };
      if (message.error) return { ms, ok: false, error: `JSON-RPC ${message.error.code} ${message.error.message}` };
      const result = message.result as { isError?: boolean; structuredContent?: Record<string, unknown> };
      const structured = result?.structuredContent;
      if (result?.isError) {
        const code = (structured?.error as { code?: string } | undefined)?.code;
        return { ms, ok: false, error: code ?? "isError", structured };
      }
      return { ms, ok: true, structured };
    } catch (error) {
      return { ms: performance.now() - started, ok: false, error: String(error) };
    }
  }

  /** Status of a request in this session: 404 once the server has reaped or closed it. */
  async probe(): Promise<number> {
    const response = await post(this.base, this.id, { jsonrpc: "2.0", id: this.#nextId++, method: "ping" });
    await response.body?.cancel();
    return response.status;
  }

  async close(): Promise<void> {
    const response = await fetch(`${this.base}/mcp`, {
      method: "DELETE",
      headers: { "mcp-session-id": this.id, "mcp-protocol-version": PROTOCOL },
    });
    await response.body?.cancel();
  }
}

function post(base: string, sessionId: string | undefined, message: unknown): Promise<Response> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": PROTOCOL,
  };
  if (sessionId) headers["mcp-session-id"] = sessionId;
  return fetch(`${base}/mcp`, { method: "POST", headers, body: JSON.stringify(message) });
}

interface RpcMessage {
  result?: unknown;
  error?: { code: number; message: string };
}

/** The JSON-RPC answer of a POST: a JSON body, or the last `data:` event of an SSE stream. */
async function readMessage(response: Response): Promise<RpcMessage | undefined> {
  const text = await response.text();
  const sse = (response.headers.get("content-type") ?? "").includes("text/event-stream");
  const data = sse ? text.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trim()) : [text];
  try {
    const last = data.filter(Boolean).at(-1);
    return last ? JSON.parse(last) : undefined;
  } catch {
    return undefined; // not JSON-RPC (a plain-text 500): the caller reports the HTTP status
  }
}
